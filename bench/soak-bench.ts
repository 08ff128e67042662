// Soak (run by bench/soak.mjs under tsx): 10 minutes of mixed load on the real server; its RSS and heap at start, after
// warm-up, each minute and at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config';
import { migrateToLatest, openDatabase } from '../server/db';
import { createUser, type TestUser } from '../server/test-support/tasks';
import { spawn } from 'node:child_process';
import { serverCommand } from '../scripts/server-command.mjs';
import { processMemory } from '../server/test-support/big-media';
import { signedText } from '../src/lib/api-contract';
import { sealEntries, signBatch } from '../src/lib/tracking/cipher';
import { TRACKING_PATHS } from '../src/lib/product-rules';

const MB = 1024 * 1024;
/** SOAK_S shortens a trial run; the figures of record are the default 10 minutes. */
const DURATION_S = Number(process.env.SOAK_S ?? 600);
const WARM_UP_S = Math.min(60, DURATION_S / 5);
const SENDERS = 8;
const TOKEN = 'soak-metrics-token-soak-metrics-token';
const APP_KEY = 'soak-app';

const dir = mkdtempSync(path.join(tmpdir(), 'soak-bench-'));
const env = {
  DATA_DIR: dir,
  DATABASE_URL: `sqlite:${path.join(dir, 'app.db')}`,
  SECRET_KEY: 'soak-bench-secret-soak-bench-secret-0123',
  METRICS_TOKEN: TOKEN,
  TRACKING_APP_KEYS: APP_KEY,
  // Budgets high enough that the load reaches the handlers; refusals by budget are part of the mix anyway.
  RATE_LIMIT_PER_MINUTE: '1000000',
  TASK_USER_CONCURRENCY: '1000',
};
const database = await openDatabase(env.DATABASE_URL);
await migrateToLatest(database);
const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
const users: TestUser[] = [];
for (let i = 0; i < 4; i++) users.push(await createUser({ database, config }, 1_000_000));
await database.close();
const server = await startBuilt();
const base = server.url;

/** The server as `npm start` runs it (the built bundle, not tsx), on a free port, with its JSON log lines kept. */
async function startBuilt() {
  const { command, args } = await serverCommand();
  const child = spawn(command, args, {
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const logs: Array<Record<string, unknown>> = [];
  let rest = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as Record<string, unknown>;
        // Only what the bench reads is kept: a log of every line would grow this process, not the server.
        if (entry.msg === 'listening') resolve(entry.port as number);
        else if (typeof entry.code === 'string' && typeof entry.email === 'string') logs.push(entry);
        if (logs.length > 1000) logs.splice(0, 500);
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code} before listening`)));
  });
  return { url: `http://127.0.0.1:${port}`, child, logs, stop: () => child.kill('SIGKILL') };
}

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
async function call(
  route: string,
  init: RequestInit,
): Promise<{ status: number; body: { code?: number; data?: Record<string, unknown> } }> {
  const res = await fetch(`${base}${route}`, init);
  if (res.status >= 500) serverErrors++;
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as { code?: number; data?: Record<string, unknown> } };
  } catch {
    return { status: res.status, body: {} };
  }
}
const api = (user: TestUser, route: string, body: unknown) =>
  call(route, {
    ...json(body),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.apiKey}` },
  });

let serverErrors = 0;
const taskIds: string[] = [];
/** The newest sign-in code the server printed for `email` (no SMTP here). */
function codeFor(email: string): string | undefined {
  return server.logs.findLast((line) => line.email === email)?.code as string | undefined;
}

/** The mix: what people and clients do, and what a fuzzer sends. */
const actions: Array<[weight: number, run: () => Promise<unknown>]> = [
  [
    2,
    async () => {
      const email = `soak-${Math.floor(Math.random() * 200)}@example.com`;
      const sent = await call('/user/code', json({ email, type: 'login' }));
      const attemptId = sent.body.data?.attemptId;
      const code = codeFor(email);
      if (typeof attemptId === 'string' && code) await call('/user/email/login', json({ email, code, attemptId }));
    },
  ],
  [
    2,
    async () => {
      const answer = await api(pick(users), '/api/async/do_tts_common', {
        text: 'A short line for the soak test.',
        audioId: 'en-us-female-1',
      });
      const id = answer.body.data?.taskId;
      if (typeof id === 'string') taskIds.push(id);
      if (taskIds.length > 1000) taskIds.splice(0, 500);
    },
  ],
  [6, async () => (taskIds.length ? api(pick(users), '/api/getAsyncResult', { taskId: pick(taskIds) }) : undefined)],
  [4, async () => api(pick(users), '/api/remaining_credits', {})],
  [
    4,
    async () => {
      const device = `soak-${Math.floor(Math.random() * 50)}`;
      const session = await call(
        TRACKING_PATHS.accessToken,
        json({
          app_key: APP_KEY,
          device_id: device,
          app_version: '1',
          platform: 'pc-web',
          platform_version: 'x',
          log_version: '1',
        }),
      );
      const s = session.body.data as { token: string; produceId: string; sign: string } | undefined;
      if (!s) return;
      const config = await call(TRACKING_PATHS.trackConfig, json({ token: s.token, sign: s.sign }));
      const ak = (config.body.data as { ak?: string } | undefined)?.ak;
      if (!ak) return;
      const entries = Array.from({ length: 10 }, (_, i) => ({
        entryId: `soak-${Date.now()}-${Math.random()}`,
        coldStartId: 'soak',
        seqId: i + 1,
        uid: '',
        time: Date.now(),
        oid: 'soak_event',
        action: 1,
        foid: '',
        ffid: '',
        logmap: { i },
      }));
      const fields = {
        token: s.token,
        produceId: s.produceId,
        queueId: String(Date.now()),
        sendTime: Date.now(),
        batchCount: entries.length,
        msgEncrypt: sealEntries(entries, ak),
      };
      await call(TRACKING_PATHS.trackInfo, json({ ...fields, sign: signBatch(signedText(fields), ak) }));
    },
  ],
  [
    6,
    async () => {
      const bad: Array<[string, RequestInit]> = [
        [
          '/api/async/do_tts_common',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${pick(users).apiKey}` },
            body: '{"text": ',
          },
        ],
        [
          '/api/async/do_tts_common',
          {
            ...json({ text: 'x'.repeat(9000), speed: 1e308 }),
            headers: { 'content-type': 'application/json', authorization: `Bearer ${pick(users).apiKey}` },
          },
        ],
        [
          '/api/getAsyncResult',
          {
            ...json({ taskId: 'not-a-task' }),
            headers: { 'content-type': 'application/json', authorization: 'Bearer sk-invented' },
          },
        ],
        ['/user/email/login', json({ email: 'nobody@example.com', code: '12a4' })],
        [TRACKING_PATHS.trackInfo, json({ token: 'forged', msgEncrypt: '%%%', sign: 'x' })],
        [
          '/api-playground/file/v1/upload',
          { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x\r\nnonsense' },
        ],
        [`/media/${'a'.repeat(40)}.wav?exp=1&sig=x`, { method: 'GET' }],
        ['/api/async/no_such_tool', json({})],
      ];
      const [route, init] = pick(bad);
      return call(route, init);
    },
  ],
];
const total = actions.reduce((n, [w]) => n + w, 0);
function chooseAction(): () => Promise<unknown> {
  let r = Math.random() * total;
  for (const [w, run] of actions) if ((r -= w) < 0) return run;
  return actions[0]![1];
}

/** The server's V8 heap in use, from its own metrics. */
async function heapUsed(): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  return Number(/^dreamapi_nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1] ?? NaN);
}

let requests = 0;
let failures = 0;
const rows: Array<Record<string, string | number>> = [];
async function sample(label: string) {
  const { rss } = await processMemory(server.child.pid!);
  rows.push({
    when: label,
    'actions so far': requests,
    'RSS MB': +(rss / MB).toFixed(1),
    'heap used MB': +((await heapUsed()) / MB).toFixed(1),
    '5xx answers': serverErrors,
    'client-side errors': failures,
  });
}

await sample('start');
const started = Date.now();
const endAt = started + DURATION_S * 1000;
let nextSample = started + WARM_UP_S * 1000;
let warmedUp = false;
const sampler = (async () => {
  while (Date.now() < endAt) {
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(nextSample, endAt) - Date.now())));
    if (Date.now() >= endAt) break;
    await sample(warmedUp ? `${Math.round((Date.now() - started) / 1000)} s` : `after warm-up (${WARM_UP_S} s)`);
    warmedUp = true;
    nextSample += 60_000;
  }
})();
await Promise.all(
  Array.from({ length: SENDERS }, async () => {
    while (Date.now() < endAt) {
      try {
        await chooseAction()();
      } catch {
        failures++;
      }
      requests++;
    }
  }),
);
await sampler;
await sample(`end (${DURATION_S} s)`);
server.stop();
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify(rows));
