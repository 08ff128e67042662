// Real server processes on one PostgreSQL, Redis and S3: 2 api and 2 worker instances, shared caps and budgets, kill -9
// takeover, webhooks, media and cancel across instances (docs/scaling.md); the outages are in outages.test.ts.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEDGER_REASONS } from '../../server/tasks';
import { creditState } from '../../server/test-support/tasks';
import { silentWav } from '../../server/test-support/wav';
import { TASK_ERROR_CODES, TASK_MESSAGES } from '../../src/lib/product-rules';
import { call, expectSettledOnce, missingServices, waitFor, webhookListener } from './cluster.fixtures';
import type { Instance } from './server-processes';
import {
  CLUSTER_CAP as CAP,
  CLUSTER_RATE_LIMIT as RATE_LIMIT,
  startCluster,
  TERMINAL,
  type Cluster,
} from './cluster-setup';

const skipReason = await missingServices();
if (skipReason) console.warn(`cluster test skipped: ${skipReason}`);

const USERS = 20;
const SUBMITS_PER_USER = 10;
const BALANCE = 8;

let cluster: Cluster | undefined;
let api: Instance[] = [];
let workers: Instance[] = [];
const accepted: string[] = [];
let hooks: Awaited<ReturnType<typeof webhookListener>>;

const db = () => cluster!.database.db;
const users = () => cluster!.users;

describe.skipIf(skipReason !== null)(
  'a cluster of api and worker processes on PostgreSQL, Redis and S3',
  { timeout: 400_000 },
  () => {
    beforeAll(async () => {
      hooks = await webhookListener();
      // USERS accounts for the cap, one for the rate limit, one for the upload, one with 100 credits for the cancel.
      cluster = await startCluster({
        name: 'cluster',
        balances: [...Array.from({ length: USERS + 2 }, () => BALANCE), 100],
      });
      // Only api instances at first: nothing runs, so the per-user cap is the only thing that refuses a submit.
      api = await Promise.all([cluster.start('api'), cluster.start('api')]);
    }, 300_000);

    afterAll(async () => {
      hooks?.server.close();
      await cluster?.close();
    });

    it(`the per-user cap (${CAP}) holds across both api instances: 200 concurrent submits, ${CAP} accepted per user, the rest 429`, async () => {
      const answers = await Promise.all(
        Array.from({ length: USERS * SUBMITS_PER_USER }, (_, n) => {
          const user = users()[n % USERS]!;
          // User 0's tasks call a local listener back.
          const callback = n % USERS === 0 ? { callbackUrl: hooks.url } : {};
          return call(api[n % 2]!.url, user.apiKey, '/async/do_tts_common', {
            text: `Task ${n}.`,
            lan: 'en-US',
            ...callback,
          }).then((a) => ({
            ...a,
            user: user.id,
          }));
        }),
      );
      const ok = answers.filter((a) => a.status === 200);
      const refused = answers.filter((a) => a.status !== 200);
      for (const a of ok) accepted.push(a.data!.taskId as string);
      for (const user of users().slice(0, USERS)) expect(ok.filter((a) => a.user === user.id)).toHaveLength(CAP);
      expect(refused).toHaveLength(USERS * (SUBMITS_PER_USER - CAP));
      for (const a of refused) {
        expect(a.status).toBe(429);
        expect(a.code).toBe(TASK_ERROR_CODES.tooManyTasks);
        expect(a.message).toContain(TASK_MESSAGES.tooManyTasks);
      }
    });

    it(`a rate limit of ${RATE_LIMIT} a minute holds as ${RATE_LIMIT} across both api instances`, async () => {
      const key = users()[USERS]!.apiKey;
      const answers = await Promise.all(
        Array.from({ length: RATE_LIMIT * 2 }, (_, n) => call(api[n % 2]!.url, key, '/remaining_credits')),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(RATE_LIMIT);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(RATE_LIMIT);
    });

    it('workers run every task; one killed with -9 mid-run is restarted; each task ends once and no credit drifts', async () => {
      workers = await Promise.all([cluster!.start('worker'), cluster!.start('worker')]);
      // Kill one worker while tasks are still running or waiting.
      // Each worker runs at most 2 at once: 3 running means both workers hold tasks, so the killed one dies mid-task.
      await waitFor(
        async () => (await db().selectFrom('tasks').select('id').where('status', '=', 'running').execute()).length >= 3,
        60_000,
        'both workers running tasks',
        cluster!.statusCounts,
      );
      const victim = workers[0]!;
      const runningAtKill = await db().selectFrom('tasks').select('id').where('status', '=', 'running').execute();
      const waitingAtKill = await cluster!.tasksNotTerminal();
      victim.child.kill('SIGKILL');
      await victim.exited;
      const killedAt = Date.now();
      workers[0] = await cluster!.start('worker');
      const started = Date.now();
      await waitFor(
        async () => (await cluster!.tasksNotTerminal()) === 0,
        120_000,
        'every task reaching a final status',
        cluster!.statusCounts,
      );
      const drainS = (Date.now() - started) / 1000;

      const rows = await db().selectFrom('tasks').selectAll().where('id', 'in', accepted).execute();
      expect(rows).toHaveLength(USERS * CAP);
      const retried = rows.filter((t) => t.attempts > 1);
      const takeoverS = retried.length ? Math.max(...retried.map((t) => t.finished_at! - killedAt)) / 1000 : 0;
      const overlap = Math.max(
        ...rows.map((t) => rows.filter((u) => u.started_at! <= t.started_at! && u.finished_at! > t.started_at!).length),
      );
      const count = (s: string) => rows.filter((t) => t.status === s).length;
      console.info(
        `cluster: ${rows.length} tasks: ${count('succeeded')} succeeded, ${count('failed')} failed, ` +
          `${count('canceled')} canceled; at the kill ${runningAtKill.length} running and ${waitingAtKill} ` +
          `unfinished; ${retried.length} run again, the last done ${takeoverS.toFixed(1)} s after the kill; ` +
          `all done ${drainS.toFixed(1)} s after it; at most ${overlap} at once`,
      );
      for (const task of rows) expect(TERMINAL).toContain(task.status);
      await expectSettledOnce(db(), rows);
      for (const user of users()) {
        const state = await creditState({ database: cluster!.database }, user.id);
        expect(state.balance).toBe(state.ledgerSum);
      }
    });

    it('each webhook event reaches the listener at least once, every delivery of it with one webhook-id', async () => {
      const withCallback = await db().selectFrom('tasks').select('id').where('user_id', '=', users()[0]!.id).execute();
      expect(withCallback).toHaveLength(CAP);
      await waitFor(
        async () =>
          (await db().selectFrom('webhook_deliveries').select('id').where('status', '=', 'delivered').execute())
            .length >= CAP,
        60_000,
        'every webhook delivered',
      );
      const events = await db().selectFrom('webhook_deliveries').select(['id', 'task_id']).execute();
      expect(events).toHaveLength(CAP);
      for (const event of events) {
        const received = hooks.deliveries.filter((d) => d.body.data.task.taskId === event.task_id);
        // The listener refuses each event's first delivery, so it came at least twice.
        expect(received.length).toBeGreaterThanOrEqual(2);
        expect(new Set(received.map((d) => d.id))).toEqual(new Set([event.id]));
      }
    });

    it('a file uploaded with a policy from one api instance is served by the other from S3', async () => {
      const [a, b] = api as [Instance, Instance];
      const user = users()[USERS + 1]!;
      const policy = await call(a.url, user.apiKey, '/file/v1/get_policy', { scene: 'audio' });
      expect(policy.status).toBe(200);
      // With S3 the policy is a presigned POST straight to the bucket; the file goes last, with its own type.
      const { host, fields, reqId } = policy.data as { host: string; fields: Record<string, string>; reqId: string };
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.set(k, k === 'Content-Type' ? 'audio/wav' : v);
      const wav = silentWav(0.5, 16_000);
      form.set('file', new Blob([wav], { type: 'audio/wav' }), 'a.wav');
      expect((await fetch(host, { method: 'POST', body: form })).status).toBe(204);
      const finished = await call(a.url, user.apiKey, '/file/v1/policy_upload_finish', { reqId });
      expect(finished.status).toBe(200);
      const url = new URL(finished.data!.url as string);
      expect(url.origin).toBe(a.url);
      const served = await fetch(`${b.url}${url.pathname}${url.search}`);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(wav))).toBe(true);
    });

    it('a cancel sent to one api instance stops the task a worker process is running, and refunds it', async () => {
      const [a, b] = api as [Instance, Instance];
      const user = users()[USERS + 2]!;
      const text = 'A long sentence that keeps the speech engine busy for a while. '.repeat(70);
      const submitted = await call(b.url, user.apiKey, '/async/do_tts_common', { text, lan: 'en-US' });
      expect(submitted.status).toBe(200);
      const id = submitted.data!.taskId as string;
      await waitFor(
        async () =>
          (await db().selectFrom('tasks').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status !==
          'queued',
        30_000,
        'a worker taking the task',
      );
      const canceled = await call(a.url, user.apiKey, '/cancelAsyncTask', { taskId: id });
      expect(canceled.status).toBe(200);
      const task = await db().selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(task.status).toBe('canceled');
      expect(task.started_at).not.toBeNull();
      const ledger = await db()
        .selectFrom('credit_ledger')
        .select('reason')
        .where('reference', '=', id)
        .orderBy('id')
        .execute();
      expect(ledger.map((r) => r.reason)).toEqual([LEDGER_REASONS.hold, LEDGER_REASONS.refund]);
      // The worker, told by NOTIFY, gives the task up: no output stored and the balance whole once its job is done.
      await waitFor(
        async () =>
          (await sql<{ state: string }>`select state from pgboss.job where id = ${id}`.execute(db())).rows.every(
            (j) => !['created', 'retry', 'active'].includes(j.state),
          ),
        30_000,
        'the job leaving the worker',
      );
      expect(await db().selectFrom('media').select('id').where('task_id', '=', id).execute()).toHaveLength(0);
      const state = await creditState({ database: cluster!.database }, user.id);
      expect(state.balance).toBe(100);
      expect(state.ledgerSum).toBe(100);
    });
  },
);
