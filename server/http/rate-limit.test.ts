// The public API limiter on the real app: bogus keys count per IP, the keys of one account share one budget.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lazyServerKeys } from '../accounts';
import { regenerateApiKey } from '../accounts/api-keys';
import { createTasksTestApp, createUser, type TasksTestApp } from '../test-support/tasks';
import { ipBudgetKey, memoryRateLimitStore } from './rate-limit';

const LIMIT = 100;
let t: TasksTestApp;

beforeEach(async () => {
  t = await createTasksTestApp({ env: { RATE_LIMIT_PER_MINUTE: String(LIMIT), TRUST_PROXY: 'true' } });
});
afterEach(async () => {
  await t.close();
});

async function call(ip: string, key: string) {
  const res = await t.app.request('/api/remaining_credits', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-forwarded-for': ip },
    body: '{}',
  });
  return { status: res.status, headers: res.headers };
}

const bogusKey = () => `sk-${randomBytes(32).toString('base64url')}`;

describe('rateLimit on /api/*', () => {
  it('counts calls with invented keys per client IP, so 150 random keys from one IP meet 429 after the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 150; i += 1) statuses.push((await call('203.0.113.9', bogusKey())).status);
    expect(statuses.slice(0, LIMIT).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(LIMIT).every((s) => s === 429)).toBe(true);
    const limited = await call('203.0.113.9', bogusKey());
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    // Another IP keeps its own budget, and a real key from the exhausted IP counts on its account.
    expect((await call('198.51.100.4', bogusKey())).status).toBe(401);
    const user = await createUser(t, 0);
    expect((await call('203.0.113.9', user.apiKey)).status).toBe(200);
  });

  it('is not fooled by X-Forwarded-For entries a client writes before the one the proxy appends', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 5; i += 1)
      statuses.push((await call(`${1 + (i % 250)}.${i >> 8}.7.7, 203.0.113.44`, bogusKey())).status);
    expect(statuses.slice(0, LIMIT).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(LIMIT).every((s) => s === 429)).toBe(true);
  });

  it('gives the keys of one account one budget: a regenerated key does not start a fresh one', async () => {
    const user = await createUser(t, 0);
    for (let i = 0; i < LIMIT / 2; i += 1) expect((await call('203.0.113.10', user.apiKey)).status).toBe(200);
    const second = await regenerateApiKey(t.database.db, lazyServerKeys(t.config)().encryption, user.id);
    for (let i = 0; i < LIMIT / 2; i += 1) expect((await call('198.51.100.20', second)).status).toBe(200);
    const over = await call('192.0.2.30', second);
    expect(over.status).toBe(429);
    expect(over.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));

    // Other callers are not affected by that account's use.
    const other = await createUser(t, 0);
    expect((await call('203.0.113.10', other.apiKey)).status).toBe(200);
  });
});

describe('ipBudgetKey', () => {
  it('keeps IPv4, unwraps IPv4-mapped IPv6 and counts IPv6 by its /64', () => {
    expect(ipBudgetKey('203.0.113.9')).toBe('203.0.113.9');
    expect(ipBudgetKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(ipBudgetKey('2001:db8:1:2:aaaa::1')).toBe(ipBudgetKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'));
    expect(ipBudgetKey('2001:db8:1:2::1')).not.toBe(ipBudgetKey('2001:db8:1:3::1'));
    expect(ipBudgetKey('unknown')).toBe('unknown');
  });

  it('starts a fresh window once the old one has passed', async () => {
    const store = memoryRateLimitStore();
    expect((await store.hit('k', 1000, 0)).count).toBe(1);
    expect(await store.hit('k', 1000, 999)).toEqual({ count: 2, resetAt: 1000 });
    expect(await store.hit('k', 1000, 1000)).toEqual({ count: 1, resetAt: 2000 });
  });

  it('holds at most maxKeys windows: the oldest go first, and a live window keeps counting', async () => {
    const store = memoryRateLimitStore(3);
    await store.hit('busy', 60_000, 0);
    for (let i = 0; i < 1000; i++) await store.hit(`invented-${i}`, 60_000, 1);
    // "busy" was the oldest window, so it was dropped and starts again; the newest invented keys are still counted.
    expect((await store.hit('busy', 60_000, 2)).count).toBe(1);
    expect((await store.hit('invented-999', 60_000, 3)).count).toBe(2);
    expect((await store.hit('invented-0', 60_000, 4)).count).toBe(1);
  });
});
