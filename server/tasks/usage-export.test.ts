// The usage export: CSV escaping (quotes, commas, line breaks, formulas), keyset pages that never hold the range, the
// date range, and the API's JSON with the request id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyCreditChange } from '../credits';
import { createTasksTestApp, createUser, type TasksTestApp, type TestUser } from '../test-support/tasks';
import { csvCell, csvLine, usagePages } from './usage-export';
import { PUBLIC_API_CODES, USAGE_EXPORT } from '../../src/lib/product-rules';
import { usageLedgerRow, type UsageRow } from '../../src/lib/api-contract';
import { APP_DATABASES } from '../test-support/app-databases';

const DAY_MS = 24 * 60 * 60 * 1000;
const today = () => new Date().toISOString().slice(0, 10);

describe('CSV cells', () => {
  it('quotes commas, quotes and line breaks, doubling quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
    expect(csvCell(null)).toBe('');
  });

  it('defuses text a spreadsheet would run as a formula, but writes numbers as numbers', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+SUM(A1)')).toBe("'+SUM(A1)");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(0)).toBe('0');
  });

  it('writes a row in the column order, ending with CRLF', () => {
    const row = usageLedgerRow({
      id: '7',
      time: '2026-01-02T03:04:05.000Z',
      delta: -3,
      balanceAfter: 97,
      reason: 'task-hold',
      reference: 'a,b',
    });
    expect(csvLine(row)).toBe('ledger,7,2026-01-02T03:04:05.000Z,,,,,,,,-3,97,task-hold,"a,b",,\r\n');
    expect(USAGE_EXPORT.columns).toHaveLength(16);
  });
});

// The keyset queries on both engines (PostgreSQL when TEST_DATABASE_URL is set).
const targets = APP_DATABASES;

describe.each(targets)('usage export on $label', ({ postgres }) => {
  let t: TasksTestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTasksTestApp({ postgres, env: { RATE_LIMIT_PER_MINUTE: '10000', TASK_USER_CONCURRENCY: '100' } });
    user = await createUser(t, 1000);
  });
  afterAll(async () => t?.close());

  const api = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    t.app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.apiKey}`, ...headers },
      body: JSON.stringify(body),
    });

  it('reads the range in keyset pages of the given size, tasks then ledger rows, oldest first', async () => {
    const other = await createUser(t, 50);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await api(
        '/api/async/do_tts_common',
        { text: `Task ${i}` },
        { authorization: `Bearer ${other.apiKey}` },
      );
      ids.push(((await res.json()) as { data: { taskId: string } }).data.taskId);
    }
    const sizes: number[] = [];
    const rows: UsageRow[] = [];
    for await (const page of usagePages(t.database.db, other.id, { from: today(), to: today() }, 3)) {
      sizes.push(page.length);
      rows.push(...page);
    }
    // 7 tasks and 8 ledger rows (the grant and 7 holds), never more than 3 rows read at once.
    expect(sizes.every((n) => n <= 3)).toBe(true);
    expect(rows.filter((r) => r.kind === 'task').map((r) => r.id)).toEqual(ids);
    expect(rows.filter((r) => r.kind === 'ledger').map((r) => r.reason)).toEqual([
      'grant',
      ...ids.map(() => 'task-hold'),
    ]);
    expect(rows.findIndex((r) => r.kind === 'ledger')).toBe(7);
    const yesterday = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
    const none = usagePages(t.database.db, other.id, { from: yesterday, to: yesterday }, 3);
    expect((await none.next()).done).toBe(true);
  });

  it('answers the public API with the JSON envelope, each task carrying its request id and key', async () => {
    const submitted = await api(
      '/api/async/do_tts_common',
      { text: 'Exported task' },
      { 'x-request-id': 'req-export-42' },
    );
    const taskId = ((await submitted.json()) as { data: { taskId: string } }).data.taskId;
    const res = await api('/api/usage/export', { from: today(), to: today() });
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = (await res.json()) as { code: number; data: { from: string; rows: UsageRow[] } };
    expect(body.code).toBe(0);
    expect(body.data.rows.find((r) => r.id === taskId)).toMatchObject({
      kind: 'task',
      feature: 'tts-common',
      status: 'queued',
      source: 'api',
      creditsHeld: 1,
      creditsCharged: null,
      requestId: 'req-export-42',
      keyName: 'Default key',
    });
    expect(body.data.rows.filter((r) => r.kind === 'ledger').map((r) => r.reason)).toEqual(['grant', 'task-hold']);
  });

  it('streams the dashboard CSV with an attachment name, escaped cells', async () => {
    await t.database.db
      .transaction()
      .execute((trx) =>
        applyCreditChange(trx, { userId: user.id, delta: 5, reason: 'grant', reference: '=cmd|"/C calc"!A0,\nnext' }),
      );
    const res = await t.app.request('/apply/usage/export', {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: user.token },
      body: JSON.stringify({ from: today(), to: today() }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="usage-${today()}-to-${today()}.csv"`);
    const text = await res.text();
    const [header] = text.split('\r\n');
    expect(header).toBe(USAGE_EXPORT.columns.join(','));
    expect(text).toContain(`,5,1004,grant,"'=cmd|""/C calc""!A0,\nnext",,\r\n`);
    expect(text).toContain(',req-export-42,Default key\r\n');
  });

  it('refuses a reversed or too long range, naming the field', async () => {
    const reversed = await api('/api/usage/export', { from: '2026-02-01', to: '2026-01-01' });
    expect(reversed.status).toBe(400);
    const body = (await reversed.json()) as { code: number; message: string };
    expect(body.code).toBe(PUBLIC_API_CODES.illegalParameter);
    expect(body.message).toContain('to');
    const long = (await (await api('/api/usage/export', { from: '2024-01-01', to: '2026-01-01' })).json()) as {
      message: string;
    };
    expect(long.message).toContain(`${USAGE_EXPORT.maxRangeDays} days`);
    const bad = (await (await api('/api/usage/export', { from: 'yesterday', to: '2026-01-01' })).json()) as {
      message: string;
    };
    expect(bad.message).toContain('from');
    const notADay = (await (await api('/api/usage/export', { from: '2026-02-30', to: '2026-03-01' })).json()) as {
      message: string;
    };
    expect(notADay.message).toContain('from: must be a date YYYY-MM-DD');
  });
});
