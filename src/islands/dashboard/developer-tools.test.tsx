// Dashboard developer tools on the real server: a key's caps edited in the key list, and the webhook log's filter and
// Redeliver against a local receiver.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTasksTestApp, createUser, type TasksTestApp, type TestUser } from '../../../server/test-support/tasks';
import { NAMED_API_KEYS } from '../../lib/product-rules';
import NamedKeys from './NamedKeys';
import WebhookLog from './WebhookLog';
import { resetPage, signInPage } from '../shared/page.fixtures';

let t: TasksTestApp;
let user: TestUser;

beforeEach(async () => {
  t = await createTasksTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000' } });
  user = await createUser(t, 500);
  await signInPage(t, user);
});
afterEach(() => resetPage(t));

describe('NamedKeys caps', () => {
  it('shows a key without a cap, sets a daily cap and shows the use against it', async () => {
    render(<NamedKeys />);
    const list = await screen.findByTestId('key-list');
    const item = within(list).getByText(NAMED_API_KEYS.defaultName).closest('li')!;
    await waitFor(() => expect(within(item).getByTestId('key-caps').textContent).toContain('0 used · no cap'));
    fireEvent.click(await within(item).findByRole('button', { name: 'Edit caps of Default key' }));
    fireEvent.change(within(item).getByLabelText('Daily cap (UTC day)'), { target: { value: '5' } });
    fireEvent.click(within(item).getByRole('button', { name: 'Save caps' }));
    expect(await within(item).findByRole('meter', { name: 'Today: 0 of 5 credits' })).toBeTruthy();
    const stored = await t.database.db
      .selectFrom('api_keys')
      .select(['daily_credit_cap', 'monthly_credit_cap'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ daily_credit_cap: 5, monthly_credit_cap: null });
  });
});

describe('WebhookLog', () => {
  it('lists attempts, filters failed ones and redelivers one to the receiver', async () => {
    const got: string[] = [];
    const receiver = createServer((req, res) => {
      got.push(String(req.headers['webhook-id']));
      req.resume();
      res.writeHead(200).end('welcome back');
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      // A message whose first attempt failed and second got through, as the dispatcher logs them.
      const now = Date.now();
      const db = t.database.db;
      await db
        .insertInto('tasks')
        .values({
          id: 'task-1',
          user_id: user.id,
          feature: 'tts-common',
          status: 'succeeded',
          source: 'api',
          input: '{}',
          engine: 'espeak',
          price_item: 'tts-common',
          created_at: now,
          updated_at: now,
        })
        .execute();
      await db
        .insertInto('webhook_deliveries')
        .values({
          id: 'msg_1',
          task_id: 'task-1',
          user_id: user.id,
          url,
          payload: '{"type":"task.succeeded"}',
          status: 'delivered',
          attempts: 2,
          next_attempt_at: now,
          created_at: now,
          updated_at: now,
        })
        .execute();
      const attempt = {
        delivery_id: 'msg_1',
        task_id: 'task-1',
        user_id: user.id,
        url,
        trigger: 'retry' as const,
        latency_ms: 12,
        created_at: now,
      };
      await db
        .insertInto('webhook_attempts')
        .values({
          ...attempt,
          attempt: 1,
          status_code: 503,
          ok: 0,
          error: 'HTTP 503',
          response_head: 'busy',
          next_retry_at: now + 5000,
        })
        .execute();
      await db
        .insertInto('webhook_attempts')
        .values({
          ...attempt,
          attempt: 2,
          status_code: 200,
          ok: 1,
          error: null,
          response_head: 'ok',
          next_retry_at: null,
        })
        .execute();

      render(<WebhookLog />);
      const table = await screen.findByTestId('webhook-log');
      expect(within(table).getAllByRole('row')).toHaveLength(3);
      expect(table.textContent).toContain('busy');
      fireEvent.click(screen.getByLabelText('Failed only'));
      await waitFor(() => expect(within(screen.getByTestId('webhook-log')).getAllByRole('row')).toHaveLength(2));
      expect(screen.getByTestId('webhook-log').textContent).toContain('503');
      fireEvent.click(screen.getByLabelText('Failed only'));
      await waitFor(() => expect(within(screen.getByTestId('webhook-log')).getAllByRole('row')).toHaveLength(3));

      fireEvent.click(within(screen.getByTestId('webhook-log')).getAllByRole('button', { name: /^Redeliver/ })[0]!);
      await waitFor(() => expect(within(screen.getByTestId('webhook-log')).getAllByRole('row')).toHaveLength(4));
      const newest = within(screen.getByTestId('webhook-log')).getAllByRole('row')[1]!;
      expect(newest.textContent).toContain('redelivery');
      expect(newest.textContent).toContain('welcome back');
      expect(got).toEqual(['msg_1']);
    } finally {
      await new Promise((r) => receiver.close(r));
    }
  });
});
