// Cancels are never lost: a worker whose LISTEN connection is cut still stops a task canceled meanwhile, and the
// listener comes back.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { pgBossSystems } from '../test-support/pg-boss-systems';
import type { Engine } from '../engines';
import { postgresSkipReason } from '../test-support/instances';
import { createUser, waitForTask } from '../test-support/tasks';
import { TASK_QUEUE } from '../../src/lib/product-rules';
import { LEDGER_REASONS } from '.';
import { LISTENER_APPLICATION_NAME } from './queue-listener';

const adminUrl = process.env.TEST_DATABASE_URL;
const skipReason = await postgresSkipReason(adminUrl);
if (skipReason) console.warn(`queue listener tests skipped: ${skipReason}`);

let systems: ReturnType<typeof pgBossSystems>;
/** Task id → why its engine run was stopped. */
const stopped = new Map<string, string>();

/** Runs until its signal aborts (at most a minute, far past the test's waits). */
const waitingEngine: Engine = {
  name: 'test',
  features: ['tts-common'],
  run: (_feature, _input, ctx) =>
    new Promise((_resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('ran out the minute')), 60_000);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        stopped.set(ctx.taskId, String(ctx.signal.reason));
        reject(new Error('aborted'));
      });
    }),
};

const instance = (role: 'api' | 'worker') =>
  systems.start(role, { env: { ENGINES: 'tts-common=test' }, extraEngines: [waitingEngine] });

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: systems.url() });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

const listenerPids = async () =>
  (
    await sql<{ pid: number }>(
      'select pid from pg_stat_activity where application_name = $1 and datname = current_database()',
      [LISTENER_APPLICATION_NAME],
    )
  ).map((r) => r.pid);

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(skipReason !== null)('the worker listener (PostgreSQL)', () => {
  systems = pgBossSystems(adminUrl ?? '', 'listener');

  it('a cancel broadcast while the listener is cut still stops the run; the listener reconnects and hears the next cancel', async () => {
    const api = await instance('api');
    await instance('worker');
    const user = await createUser(api, 10);
    const input = { text: 'a long run', voice: 'en-us-male-1' };
    const { task } = await api.system.tasks.submit({ userId: user.id, feature: 'tts-common', input, source: 'api' });
    await waitFor(
      async () => (await api.system.tasks.byId(task.id))!.status === 'running',
      20_000,
      'the worker taking the task',
    );
    const [cutPid] = await listenerPids();
    expect(cutPid).toBeDefined();

    // The listener's connection dies; the cancel's NOTIFY goes out while nobody listens and is lost.
    await sql('select pg_terminate_backend($1)', [cutPid]);
    await api.system.tasks.cancel(user.id, task.id);
    api.system.queue.abort(task.id);
    await waitFor(async () => stopped.has(task.id), 15_000, 'the canceled run stopping');
    expect((await waitForTask(api, task.id)).status).toBe('canceled');
    const ledger = await api.database.db
      .selectFrom('credit_ledger')
      .select('reason')
      .where('reference', '=', task.id)
      .orderBy('id')
      .execute();
    expect(ledger.map((r) => r.reason)).toEqual([LEDGER_REASONS.hold, LEDGER_REASONS.refund]);

    // A new connection listens again (with keepalive), and a cancel is heard through it.
    await waitFor(
      async () => (await listenerPids()).some((pid) => pid !== cutPid),
      15_000,
      'the listener reconnecting',
    );
    const second = (await api.system.tasks.submit({ userId: user.id, feature: 'tts-common', input, source: 'api' }))
      .task;
    await waitFor(
      async () => (await api.system.tasks.byId(second.id))!.status === 'running',
      20_000,
      'the worker taking the second task',
    );
    await api.system.tasks.cancel(user.id, second.id);
    await sql('select pg_notify($1, $2)', [TASK_QUEUE.abortChannel, second.id]);
    await waitFor(async () => stopped.has(second.id), 15_000, 'the second run stopping');
  }, 90_000);
});
