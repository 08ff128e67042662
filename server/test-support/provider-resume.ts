// Test-only: a provider job across real server processes on one data dir and database: start them, submit, stop one
// mid-job, resume, and check the credits.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db';
import { createUser, creditState, waitForTask, type TestUser } from './tasks';
import { startServer, until, type ServerProcess } from './server-process';

const CREDITS = 1000;
const TASK_END_MS = 60_000;

/** What a resume test knows of its provider. */
export interface ResumedProvider<Ref> {
  /** Prefix of the temporary data dir. */
  name: string;
  /** The provider's settings (engines, key, the fake's URLs); read in beforeAll, once the fake listens. */
  env(): Record<string, string>;
  /** The public API call (path and JSON body) that starts a task running on the provider. */
  request(): { path: string; body: unknown };
  /** Waits until the provider is asked about the job whose stored reference is `ref`. */
  followed(ref: Ref): Promise<void>;
}

/** A task whose provider job is being followed by `server`. */
export interface MidJob<Ref> {
  user: TestUser;
  taskId: string;
  ref: Ref;
  server: ServerProcess;
}

/** Registers the data dir, database and server clean-up hooks; answers the steps the resume tests are made of. */
export function useProviderResume<Ref>(provider: ResumedProvider<Ref>) {
  const dir = mkdtempSync(path.join(tmpdir(), `${provider.name}-`));
  let database: AppDatabase;
  let servers: ServerProcess[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    env = {
      DATA_DIR: dir,
      DATABASE_URL: `sqlite:${path.join(dir, 'app.db')}`,
      SECRET_KEY: 'resume-test-secret-resume-test-secret-01',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      TASK_POLL_MS: '50',
      DRAIN_DELAY_S: '0',
      ...provider.env(),
    };
    database = await openDatabase(env.DATABASE_URL!);
    await migrateToLatest(database);
  });

  afterEach(() => {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    servers = [];
  });

  afterAll(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts a server process on the shared data, `extra` on top of its settings. */
  async function start(extra: Record<string, string> = {}): Promise<ServerProcess> {
    const server = await startServer({ ...env, ...extra });
    servers.push(server);
    return server;
  }

  /** Submits the provider's request through the public API; answers the task id. */
  async function submit(server: ServerProcess, user: TestUser): Promise<string> {
    const { path: route, body } = provider.request();
    const res = await fetch(`${server.url}${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await res.json()) as { message: string; data: { taskId: string } };
    expect(res.status, answer.message).toBe(200);
    return answer.data.taskId;
  }

  /** The task's provider_jobs row (it must exist). */
  const storedJob = (taskId: string) =>
    database.db.selectFrom('provider_jobs').selectAll().where('task_id', '=', taskId).executeTakeFirstOrThrow();

  /**
   * Waits until the job's reference is kept with the task and the provider is asked about it; answers the reference.
   */
  async function followed(taskId: string): Promise<Ref> {
    const stored = async () =>
      (await database.db.selectFrom('provider_jobs').select('ref').where('task_id', '=', taskId).executeTakeFirst())
        ?.ref;
    await until(async () => (await stored()) !== undefined);
    const ref = JSON.parse((await stored())!) as Ref;
    await provider.followed(ref);
    return ref;
  }

  /** A new user submits on a fresh server process, which then follows the provider job. */
  async function startMidJob(extra: Record<string, string> = {}): Promise<MidJob<Ref>> {
    const user = await createUser({ database, config: loadConfig({ ...env, LOG_LEVEL: 'silent' }) }, CREDITS);
    const server = await start(extra);
    const taskId = await submit(server, user);
    return { user, taskId, ref: await followed(taskId), server };
  }

  /** startMidJob, then kill -9 of that process. */
  async function killMidJob(): Promise<MidJob<Ref>> {
    const job = await startMidJob();
    expect(await job.server.stop('SIGKILL')).toBeNull();
    return job;
  }

  /** startMidJob, then a SIGTERM drain that hands the task back (queued, after one attempt). */
  async function drainMidJob(): Promise<MidJob<Ref>> {
    const job = await startMidJob({ DRAIN_TIMEOUT_S: '1' });
    expect(await job.server.stop('SIGTERM')).toBe(0);
    const task = await database.db
      .selectFrom('tasks')
      .select(['status', 'attempts'])
      .where('id', '=', job.taskId)
      .executeTakeFirstOrThrow();
    expect(task).toEqual({ status: 'queued', attempts: 1 });
    return job;
  }

  /** Waits for the task to succeed: held once, settled at most once, never refunded, the balance down by its charge. */
  async function expectChargedOnce({ user, taskId }: MidJob<Ref>) {
    const task = await waitForTask({ database }, taskId, TASK_END_MS);
    expect(task.status, task.error ?? '').toBe('succeeded');
    const state = await creditState({ database }, user.id);
    const mine = state.ledger.filter((r) => r.reference === taskId).map((r) => r.reason);
    expect(mine.filter((r) => r === 'task-hold')).toHaveLength(1);
    expect(mine.filter((r) => r === 'task-settle').length).toBeLessThanOrEqual(1);
    expect(mine).not.toContain('task-refund');
    expect(state.balance).toBe(state.ledgerSum);
    expect(state.balance).toBe(CREDITS - task.credits_charged!);
    expect(task.credits_charged).toBeGreaterThan(0);
    return task;
  }

  /** Waits for the task to end with `status`, the user's credits whole again. */
  async function expectRefunded({ user, taskId }: MidJob<Ref>, status: 'failed' | 'canceled') {
    const task = await waitForTask({ database }, taskId, TASK_END_MS);
    expect(task.status, task.error ?? '').toBe(status);
    const state = await creditState({ database }, user.id);
    expect(state.balance).toBe(CREDITS);
    expect(state.ledgerSum).toBe(CREDITS);
    return task;
  }

  /** A fresh process on the same data finishes the job: charged once, on a second attempt. */
  async function resumeChargedOnce(job: MidJob<Ref>) {
    await start();
    const task = await expectChargedOnce(job);
    expect(task.attempts).toBe(2);
    return task;
  }

  /** The user cancels through an API-only process (it runs no task), and is refunded. */
  async function cancelWhileNoneRuns(job: MidJob<Ref>) {
    const api = await start({ ROLE: 'api' });
    const res = await fetch(`${api.url}/api-playground/video_tools/v1/cancel`, {
      method: 'POST',
      headers: { token: job.user.token, 'content-type': 'application/json' },
      body: JSON.stringify({ taskId: job.taskId }),
    });
    expect(res.status).toBe(200);
    return expectRefunded(job, 'canceled');
  }

  /** A fresh process resumes the job with `engine`'s deadline at 2 s: the task fails as timed out, refunded. */
  async function resumePastDeadline(job: MidJob<Ref>, engine: string) {
    await start({ ENGINE_TIMEOUTS_MS: `${engine}=2000` });
    const task = await expectRefunded(job, 'failed');
    expect(task.error).toContain('timed out');
    return task;
  }

  /** A fresh process resumes the job and fails it, refunded (the provider no longer knows it). */
  async function resumeFailed(job: MidJob<Ref>) {
    await start();
    return expectRefunded(job, 'failed');
  }

  return {
    storedJob,
    killMidJob,
    drainMidJob,
    resumeChargedOnce,
    cancelWhileNoneRuns,
    resumePastDeadline,
    resumeFailed,
  };
}
