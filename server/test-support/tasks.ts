// Builds the app with its task system on SQLite (or PostgreSQL when TEST_DATABASE_URL is set), plus users with credits,
// keys and sessions.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createApp } from '../app';
import { lazyServerKeys } from '../accounts';
import { getOrCreateApiKey } from '../accounts/api-keys';
import { createSession } from '../accounts/sessions';
import { loadConfig, type Config } from '../config';
import { applyCreditChange } from '../credits';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db';
import type { Engine } from '../engines';
import type { Feature } from '../../src/lib/product-rules';
import type { MediaInfo } from '../../src/lib/api/types';
import { createLogger } from '../log';
import { createTaskSystem, type SubmitRequest, type TaskSystem } from '../tasks';
import { silentWav } from './wav';
import { BILLING_TEST_ENV } from './app';

export const TASKS_TEST_SECRET = 'tasks-test-secret-tasks-test-secret-0123';

export interface TasksTestApp {
  app: ReturnType<typeof createApp>;
  database: AppDatabase;
  config: Config;
  system: TaskSystem;
  dataDir: string;
  close(): Promise<void>;
}

export interface TasksTestOptions {
  env?: Record<string, string>;
  engines?: Engine[];
  /** Use PostgreSQL (a fresh schema) instead of in-memory SQLite; needs TEST_DATABASE_URL. */
  postgres?: boolean;
}

async function openTestDatabase(postgres: boolean): Promise<{ database: AppDatabase; dispose(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!postgres || !url) {
    const database = await openDatabase('sqlite::memory:');
    return { database, dispose: () => database.close() };
  }
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  const schema = `tasks_${randomBytes(6).toString('hex')}`;
  await admin.query(`create schema ${schema}`);
  const database = await openDatabase(url, { searchPath: schema });
  return {
    database,
    async dispose() {
      await database.close();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    },
  };
}

/** The settings of a test app keeping its files in `dataDir`; another instance of it needs only its own dir. */
export function tasksTestConfig(dataDir: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    LOG_LEVEL: 'silent',
    SITE_DIR: './dist',
    DATA_DIR: dataDir,
    SECRET_KEY: TASKS_TEST_SECRET,
    PUBLIC_URL: 'http://localhost:8787',
    TASK_POLL_MS: '50',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    ...BILLING_TEST_ENV,
    ...env,
  });
}

export async function createTasksTestApp(o: TasksTestOptions = {}): Promise<TasksTestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tasks-test-'));
  const config = tasksTestConfig(dataDir, o.env);
  const { database, dispose } = await openTestDatabase(o.postgres ?? false);
  await migrateToLatest(database);
  const log = createLogger(config.logLevel);
  const system = createTaskSystem({ config, database, log, extraEngines: o.engines });
  const app = createApp({ config, database, log, tasks: system });
  return {
    app,
    database,
    config,
    system,
    dataDir,
    async close() {
      await system.stop();
      await dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestUser {
  id: string;
  token: string;
  apiKey: string;
}

/** A user granted `credits` through the ledger (so ledger sum = balance holds), with a session and an API key. */
export async function createUser(t: Pick<TasksTestApp, 'database' | 'config'>, credits: number): Promise<TestUser> {
  const db = t.database.db;
  const id = randomUUID().replaceAll('-', '').slice(0, 16);
  const now = Date.now();
  await db
    .insertInto('users')
    .values({
      id,
      email: `${id}@example.com`,
      company: null,
      channel: null,
      country_code: null,
      referer: null,
      referer_url: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  if (credits > 0)
    await db
      .transaction()
      .execute((trx) => applyCreditChange(trx, { userId: id, delta: credits, reason: 'grant', reference: 'test' }));
  const token = await createSession(db, id);
  const apiKey = await getOrCreateApiKey(db, lazyServerKeys(t.config)().encryption, id);
  return { id, token, apiKey };
}

/** Balance and ledger sum of a user; equal whenever nothing was lost. */
export async function creditState(t: Pick<TasksTestApp, 'database'>, userId: string) {
  const db = t.database.db;
  const user = await db.selectFrom('users').select('credits').where('id', '=', userId).executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('credit_ledger')
    .select(['delta', 'reason', 'reference'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return { balance: user.credits, ledgerSum: rows.reduce((n, r) => n + r.delta, 0), ledger: rows };
}

/** Waits until a task reaches a finished status (polling the database). */
export async function waitForTask(t: Pick<TasksTestApp, 'database'>, id: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await t.database.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    if (['succeeded', 'failed', 'canceled'].includes(task.status)) return task;
    if (Date.now() > deadline) throw new Error(`task ${id} still ${task.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A tts-common task in the voice en-us-male-1, submitted to the task service itself (no route, no queue notice). */
export function submitSpeech(
  system: Pick<TaskSystem, 'tasks'>,
  userId: string,
  text: string,
  source: SubmitRequest['source'] = 'api',
) {
  return system.tasks.submit({ userId, feature: 'tts-common', input: { text, voice: 'en-us-male-1' }, source });
}

/**
 * An engine for tests: reports `progress` if given, waits for a gate (or a delay), then returns a tiny WAV (or, with
 * `cloneId`, a voice clone's id and no output); optionally fails. `features` replaces the speech features it serves.
 */
export function testEngine(
  o: {
    name?: string;
    delayMs?: number;
    fail?: string;
    gate?: Promise<void>;
    features?: readonly Feature[];
    progress?: number;
    cloneId?: string;
  } = {},
): Engine {
  return {
    name: o.name ?? 'test',
    features: o.features ?? ['tts-common', 'tts-pro', 'dialogue'],
    async run(_feature, _input, ctx) {
      if (o.progress !== undefined) await ctx.progress(o.progress);
      if (o.gate) await o.gate;
      if (o.delayMs) await new Promise((r) => setTimeout(r, o.delayMs));
      if (ctx.signal.aborted) throw new Error('aborted');
      if (o.fail) throw new Error(o.fail);
      if (o.cloneId) return { outputs: [], cloneId: o.cloneId };
      return { outputs: [{ kind: 'audio', mime: 'audio/wav', data: silentWav(1, 22050), durationS: 1 }] };
    },
  };
}

/** Uploads bytes through the playground as the user would; answers the stored media as the upload route does. */
export async function uploadAs(
  t: Pick<TasksTestApp, 'app'>,
  user: TestUser,
  bytes: Uint8Array<ArrayBuffer>,
  name: string,
  type: string,
): Promise<MediaInfo> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), name);
  const res = await t.app.request('/api-playground/file/v1/upload', {
    method: 'POST',
    headers: { token: user.token },
    body: form,
  });
  const body = (await res.json()) as { code: number; msg: string; data: MediaInfo };
  if (body.code !== 0) throw new Error(`upload of ${name} refused: ${body.msg}`);
  return body.data;
}

/**
 * A started app with an engine 'ok' that speaks (tts-common, tts-pro) and one 'bad' whose every dialogue fails: for the
 * tests that read what succeeded and failed runs leave behind (usage, request log, billing rows, history).
 */
export async function createOkBadTestApp(env: Record<string, string> = {}): Promise<TasksTestApp> {
  const t = await createTasksTestApp({
    engines: [
      testEngine({ name: 'ok', features: ['tts-common', 'tts-pro'] }),
      testEngine({ name: 'bad', features: ['dialogue'], fail: 'No voices today' }),
    ],
    env: { ENGINES: 'tts-common=ok,tts-pro=ok,dialogue=bad', RATE_LIMIT_PER_MINUTE: '1000', ...env },
  });
  await t.system.queue.start();
  return t;
}
