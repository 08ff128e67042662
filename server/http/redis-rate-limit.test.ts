// Shared request budgets in Redis: the store's fixed windows, one budget across three app instances, and per-process
// counting while Redis is down.
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { signMessage } from '../../src/lib/tracking/cipher';
import { TRACKING_MESSAGE_LIMITS, TRACKING_PATHS } from '../../src/lib/product-rules';
import type { Logger } from '../log';
import { createTestApp, type TestApp } from '../test-support/app';
import { createUser } from '../test-support/tasks';
import { openRateLimitStores, type RateLimitStores } from './redis-rate-limit';
import { skipUnlessRequired } from '../test-support/required-services';
import { until } from '../test-support/server-process';

const REDIS_URL = 'redis://127.0.0.1:6379';
/** One prefix per run, so runs on a shared Redis never see each other's counts; its keys are deleted after. */
const PREFIX = `dreamapi-test-${randomUUID()}:`;
const LIMIT = 10;
const KEY = 'test-app';

async function redisAnswers(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 1000,
  });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const SKIP_REASON = skipUnlessRequired(
  (await redisAnswers()) ? null : `no Redis answers at ${REDIS_URL}, so the shared request budget tests are skipped`,
);
const noRedis = SKIP_REASON !== null;
if (noRedis) console.warn(`redis-rate-limit.test.ts: ${SKIP_REASON}`);

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function recordingLog() {
  const warnings: string[] = [];
  const log: Logger = { debug() {}, info() {}, error() {}, warn: (msg) => warnings.push(msg) };
  return { log, warnings };
}

const opened: Array<{ close(): Promise<void> }> = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function stores(url: string, log: Logger): RateLimitStores {
  const s = openRateLimitStores({ url, prefix: PREFIX }, log);
  opened.push(s);
  return s;
}

/** Three app instances on one database file, as three processes behind a load balancer would be. */
async function instances(redisUrl: string): Promise<TestApp[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'shared-budgets-'));
  dirs.push(dir);
  const env = {
    DATABASE_URL: `sqlite:${path.join(dir, 'app.db')}`,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: PREFIX,
    RATE_LIMIT_PER_MINUTE: String(LIMIT),
    TRACKING_APP_KEYS: KEY,
  };
  const apps: TestApp[] = [];
  for (let i = 0; i < 3; i++) apps.push(await createTestApp(env));
  opened.push(...apps);
  return apps;
}

async function apiCalls(apps: TestApp[], calls: number): Promise<number[]> {
  const user = await createUser(apps[0]!, 0);
  const statuses: number[] = [];
  for (let i = 0; i < calls; i++) {
    const res = await apps[i % apps.length]!.app.request('/api/remaining_credits', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.apiKey}` },
      body: '{}',
    });
    statuses.push(res.status);
  }
  return statuses;
}

const tally = (statuses: number[]) => ({
  ok: statuses.filter((s) => s === 200).length,
  limited: statuses.filter((s) => s === 429).length,
  other: statuses.filter((s) => s !== 200 && s !== 429),
});

describe.skipIf(noRedis)(`Redis request budgets (skipped when: ${SKIP_REASON ?? 'never'})`, () => {
  const redis = new Redis(REDIS_URL);
  afterAll(async () => {
    const keys = await redis.keys(`${PREFIX}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('counts hits in fixed windows: the first hit starts the window, later ones count in it, other keys apart, a new window after it ends', async () => {
    // Long enough that the hits below land in one window on a busy machine; the wait for its end is the test's cost.
    // Whole seconds, as Redis keeps windows (a 2.5 s window would last 2 s and leave less room for a stall).
    const WINDOW_MS = 3000;
    const shared = stores(REDIS_URL, recordingLog().log);
    // Connected first: `resetAt` is `now` plus what Redis has left, so a window Redis starts late (a first hit waiting
    // for the connection on a busy machine) would outlive the wait below.
    await shared.ping!();
    const store = shared.store('contract');
    const start = Date.now();
    const first = await store.hit('k', WINDOW_MS, start);
    expect(first.count).toBe(1);
    expect(first.resetAt).toBeGreaterThan(start);
    expect(first.resetAt).toBeLessThanOrEqual(start + WINDOW_MS);
    expect((await store.hit('k', WINDOW_MS, Date.now())).count).toBe(2);
    expect((await store.hit('k', WINDOW_MS, Date.now())).count).toBe(3);
    expect((await store.hit('other', WINDOW_MS, Date.now())).count).toBe(1);
    expect(await redis.exists(`${PREFIX}rate:contract:k`)).toBe(1);

    await new Promise((resolve) => setTimeout(resolve, first.resetAt - Date.now() + 50));
    // `resetAt` is read on our clock; on a stalled machine Redis may end the window a little later, so its word
    // decides.
    await until(async () => (await redis.exists(`${PREFIX}rate:contract:k`)) === 0);
    const next = await store.hit('k', WINDOW_MS, Date.now());
    expect(next.count).toBe(1);
    expect(next.resetAt).toBeGreaterThan(first.resetAt);
  });

  it('keeps windows in whole seconds, as Redis expiries (EX) count: a window of 1.5 s lasts 1 s, one of 0.4 s lasts 1 s, never none', async () => {
    const store = stores(REDIS_URL, recordingLog().log).store('seconds');
    const now = Date.now();
    const longer = await store.hit('longer', 1500, now);
    expect(longer.resetAt - now).toBeLessThanOrEqual(1000);
    const shorter = await store.hit('shorter', 400, now);
    expect(shorter.resetAt - now).toBeGreaterThan(400);
    const ttl = await redis.pttl(`${PREFIX}rate:seconds:shorter`);
    expect(ttl).toBeGreaterThan(400);
    expect(ttl).toBeLessThanOrEqual(1000);
  });

  it('counts every hit once when three connections hit one key at the same time', async () => {
    const three = [
      stores(REDIS_URL, recordingLog().log),
      stores(REDIS_URL, recordingLog().log),
      stores(REDIS_URL, recordingLog().log),
    ].map((s) => s.store('race'));
    const now = Date.now();
    const answers = await Promise.all(Array.from({ length: 150 }, (_, i) => three[i % 3]!.hit('same', 60_000, now)));
    expect(answers.map((a) => a.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
  });

  it(
    `a public API limit of ${LIMIT} holds across 3 instances as ${LIMIT}, not ${3 * LIMIT}`,
    { timeout: 30_000 },
    async () => {
      const statuses = await apiCalls(await instances(REDIS_URL), 3 * LIMIT);
      expect(tally(statuses)).toEqual({ ok: LIMIT, limited: 2 * LIMIT, other: [] });
      expect(statuses.slice(0, LIMIT).every((s) => s === 200)).toBe(true);
      expect((await redis.keys(`${PREFIX}rate:api:user:*`)).length).toBe(1);
    },
  );

  it('the collector budget of one device holds across 3 instances (report/message)', { timeout: 30_000 }, async () => {
    const apps = await instances(REDIS_URL);
    const per = TRACKING_MESSAGE_LIMITS.perDevicePerWindow;
    const statuses: number[] = [];
    for (let i = 0; i < 3 * per; i++) {
      const message = `failure ${i}`;
      const body = {
        deviceId: 'one-device',
        appKey: KEY,
        appVersion: '1',
        platform: 'pc-web',
        platformVersion: 'x',
        message,
        sign: signMessage(KEY, 'one-device', message),
      };
      const res = await apps[i % 3]!.app.request(TRACKING_PATHS.message, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      statuses.push(res.status);
    }
    expect(tally(statuses)).toEqual({ ok: per, limited: 2 * per, other: [] });
    const stored = await apps[0]!.database.db.selectFrom('tracking_messages').select('message').execute();
    expect(stored).toHaveLength(per);
  });
});

describe('Redis unreachable: fail open to per-process counting', () => {
  it('answers every hit from this process memory, and warns once a minute rather than on every hit', async () => {
    const { log, warnings } = recordingLog();
    const store = stores(`redis://127.0.0.1:${await closedPort()}`, log).store('down');
    const counts: number[] = [];
    for (let i = 0; i < 20; i++) counts.push((await store.hit('k', 60_000, Date.now())).count);
    expect(counts).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('Redis unreachable');
  });

  it(
    `three instances keep answering, each holding the limit of ${LIMIT} on its own: no 5xx`,
    { timeout: 30_000 },
    async () => {
      const statuses = await apiCalls(await instances(`redis://127.0.0.1:${await closedPort()}`), 3 * LIMIT + 15);
      expect(tally(statuses)).toEqual({ ok: 3 * LIMIT, limited: 15, other: [] });
    },
  );
});
