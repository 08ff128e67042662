// Collector tests: token flow, encrypted batches sealed by the browser's own cipher, and every kind of bad input (SPEC.md §7, §8).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sealEntries, signBatch, signedText, signMessage } from '../../src/lib/tracking/cipher';
import type { TrackEntry, TrackInfoBody } from '../../src/lib/tracking/types';
import { TRACKING_CODES } from '../../src/lib/spec/constants';
import { ERROR_CODES } from '../../src/lib/spec/errors';
import {
  TRACKING_BATCH_LIMITS,
  TRACKING_ERROR_CODES,
  TRACKING_LIMITS,
  TRACKING_MESSAGE_LIMITS,
  TRACKING_MONITOR_LIMITS,
  TRACKING_PATHS,
  TRACKING_TOKEN,
  TRACKING_TOKEN_LIMITS,
} from '../../src/lib/spec/tracking';
import { createTestApp, type TestApp } from '../test-support/app';

const KEY = 'test-app';
let t: TestApp;

beforeEach(async () => {
  t = await createTestApp({ TRACKING_APP_KEYS: KEY, TRACKING_BATCH_SIZE: '7', TRACKING_BUFFER_S: '3' });
});
afterEach(async () => {
  vi.useRealTimers();
  await t.close();
});

async function post(path: string, body: unknown, type = 'application/json') {
  const res = await t.app.request(path, { method: 'POST', headers: { 'Content-Type': type }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const json = (await res.json()) as { code: number; msg: string; data: Record<string, unknown> | null };
  return { status: res.status, ...json };
}

async function session() {
  const token = await post(TRACKING_PATHS.accessToken, { app_key: KEY, device_id: 'dev-1', app_version: '1', platform: 'pc-web', platform_version: 'x', log_version: '1' });
  const data = token.data as { token: string; produceId: string; sign: string };
  const config = await post(TRACKING_PATHS.trackConfig, { token: data.token, sign: data.sign });
  return { ...data, ak: (config.data as { ak: string }).ak };
}

let n = 0;
function entry(overrides: Partial<TrackEntry> = {}): TrackEntry {
  n++;
  return { entryId: `e-${n}-${Math.random()}`, coldStartId: 'cs', seqId: n, uid: '', time: 1_700_000_000_000, oid: 'web_home_btn', action: 1, foid: '', ffid: 'web_home_btn', logmap: { n }, ...overrides };
}

function batch(s: { token: string; produceId: string; ak: string }, entries: unknown[], patch: Partial<TrackInfoBody> = {}, resign = true): TrackInfoBody {
  const msgEncrypt = patch.msgEncrypt ?? sealEntries(entries as TrackEntry[], s.ak);
  const fields = { token: s.token, produceId: s.produceId, queueId: '123456789', sendTime: Date.now(), batchCount: entries.length, ...patch, msgEncrypt };
  const sign = resign ? signBatch(signedText(fields), s.ak) : signBatch(signedText({ ...fields, msgEncrypt: sealEntries(entries as TrackEntry[], s.ak) }), s.ak);
  return { ...fields, sign: patch.sign ?? sign };
}

async function storedCount() {
  const row = await t.database.db.selectFrom('tracking_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('access_token (SPEC.md §7)', () => {
  it('issues an expiring server-signed token with produceId, sign and configVersion for a registered key', async () => {
    const r = await post(TRACKING_PATHS.accessToken, { app_key: KEY, device_id: 'd' });
    expect(r.code).toBe(0);
    expect(r.data).toMatchObject({ produceId: expect.any(String), sign: expect.stringMatching(/^[0-9a-f]{64}$/), configVersion: TRACKING_TOKEN.configVersion });
    expect(String(r.data!.token).split('.')).toHaveLength(2);
  });

  it('answers 40001 for an unknown or empty appKey', async () => {
    expect((await post(TRACKING_PATHS.accessToken, { app_key: 'nope' })).code).toBe(TRACKING_CODES.appKeyError);
    expect((await post(TRACKING_PATHS.accessToken, { app_key: '' })).code).toBe(TRACKING_CODES.appKeyError);
    expect((await post(TRACKING_PATHS.accessToken, {})).code).toBe(TRACKING_CODES.appKeyError);
  });
});

describe('track_config', () => {
  it('returns the batch key ak and the configured batchSize and bufferS', async () => {
    const s = await session();
    expect(s.ak).toMatch(/^[0-9a-f]{64}$/);
    const r = await post(TRACKING_PATHS.trackConfig, { token: s.token, sign: s.sign });
    expect(r.data).toMatchObject({ batchSize: 7, bufferS: 3 });
  });

  it('forged tokens get 40002: altered payload, another server secret, wrong sign, garbage', async () => {
    const s = await session();
    const [payload, mac] = s.token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const altered = `${Buffer.from(JSON.stringify({ ...claims, exp: claims.exp as number + 1e9 })).toString('base64url')}.${mac}`;
    expect((await post(TRACKING_PATHS.trackConfig, { token: altered, sign: s.sign })).code).toBe(TRACKING_CODES.tokenFailure);
    const other = await createTestApp({ TRACKING_APP_KEYS: KEY, SECRET_KEY: 'another-server-secret-another-server-0123' });
    const foreign = await other.app.request(TRACKING_PATHS.accessToken, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ app_key: KEY }) });
    const ft = ((await foreign.json()) as { data: { token: string; sign: string } }).data;
    await other.close();
    expect((await post(TRACKING_PATHS.trackConfig, ft)).code).toBe(TRACKING_CODES.tokenFailure);
    expect((await post(TRACKING_PATHS.trackConfig, { token: s.token, sign: 'ab'.repeat(32) })).code).toBe(TRACKING_CODES.tokenFailure);
    expect((await post(TRACKING_PATHS.trackConfig, { token: 'x.y.z', sign: s.sign })).code).toBe(TRACKING_CODES.tokenFailure);
  });

  it('a token outlives a restart and is accepted by every instance sharing the server secret (no TRACKING_SECRET needed)', async () => {
    const s = await session();
    const restarted = await createTestApp({ TRACKING_APP_KEYS: KEY });
    try {
      const res = await restarted.app.request(TRACKING_PATHS.trackConfig, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: s.token, sign: s.sign }) });
      const body = (await res.json()) as { code: number; data: { ak: string } };
      expect(body.code).toBe(TRACKING_CODES.ok);
      expect(body.data.ak).toBe(s.ak);
    } finally {
      await restarted.close();
    }
  });

  it('TRACKING_SECRET, when set, signs tokens instead of the server secret', async () => {
    const s = await session();
    const own = await createTestApp({ TRACKING_APP_KEYS: KEY, TRACKING_SECRET: 'tracking-only-secret-tracking-only-0123' });
    try {
      const res = await own.app.request(TRACKING_PATHS.trackConfig, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: s.token, sign: s.sign }) });
      expect(((await res.json()) as { code: number }).code).toBe(TRACKING_CODES.tokenFailure);
    } finally {
      await own.close();
    }
  });

  it('an expired token gets 40002', async () => {
    const s = await session();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + TRACKING_TOKEN.ttlMs + 1);
    expect((await post(TRACKING_PATHS.trackConfig, { token: s.token, sign: s.sign })).code).toBe(TRACKING_CODES.tokenFailure);
  });
});

describe('track_info', () => {
  it('decrypts a batch sealed by the browser cipher and stores every entry once', async () => {
    const s = await session();
    const entries = [entry(), entry(), entry()];
    const r = await post(TRACKING_PATHS.trackInfo, batch(s, entries));
    expect(r).toMatchObject({ code: 0, data: { stored: 3, duplicates: 0 } });
    const rows = await t.database.db.selectFrom('tracking_events').selectAll().orderBy('seq_id').execute();
    expect(rows.map((row) => row.entry_id)).toEqual(entries.map((e) => e.entryId));
    expect(JSON.parse(rows[0]!.logmap)).toEqual(entries[0]!.logmap);
    expect(rows[0]).toMatchObject({ app_key: KEY, device_id: 'dev-1', produce_id: s.produceId, action: 1 });
  });

  it('dedupes by entry id: a resent batch and a beacon copy store nothing new', async () => {
    const s = await session();
    const entries = [entry(), entry()];
    await post(TRACKING_PATHS.trackInfo, batch(s, entries));
    const again = await post(TRACKING_PATHS.trackInfo, batch(s, entries));
    expect(again).toMatchObject({ code: 0, data: { stored: 0, duplicates: 2 } });
    const beacon = await post(TRACKING_PATHS.trackInfo, JSON.stringify(batch(s, [...entries, entry()])), 'text/plain;charset=UTF-8');
    expect(beacon).toMatchObject({ code: 0, data: { stored: 1, duplicates: 2 } });
    expect(await storedCount()).toBe(3);
  });

  it('a batch sealed with another token\'s key is refused (40003) and nothing is stored', async () => {
    const s = await session();
    const s2 = await session();
    const body = batch({ ...s, ak: s2.ak }, [entry()]);
    const r = await post(TRACKING_PATHS.trackInfo, body);
    expect(r.code).toBe(TRACKING_ERROR_CODES.signMismatch);
    expect(await storedCount()).toBe(0);
  });

  it('tampered ciphertext is refused by the sign check (40003)', async () => {
    const s = await session();
    const body = batch(s, [entry(), entry()]);
    const chars = body.msgEncrypt.split('');
    const i = 40;
    chars[i] = chars[i] === 'A' ? 'B' : 'A';
    const r = await post(TRACKING_PATHS.trackInfo, { ...body, msgEncrypt: chars.join('') });
    expect(r.code).toBe(TRACKING_ERROR_CODES.signMismatch);
    expect(await storedCount()).toBe(0);
  });

  it('truncated or undecryptable ciphertext with a matching sign gets 40006, never a 5xx', async () => {
    const s = await session();
    const sealed = sealEntries([entry(), entry()], s.ak);
    const cases = [
      sealed.slice(0, 24), // shorter than IV + one block
      Buffer.from(sealed, 'base64').subarray(0, 40).toString('base64'), // not whole blocks
      Buffer.from(sealed, 'base64').subarray(0, Buffer.from(sealed, 'base64').length - 16).toString('base64'), // last block cut: bad padding/JSON
      'not*base64!',
    ];
    for (const msgEncrypt of cases) {
      const r = await post(TRACKING_PATHS.trackInfo, batch(s, [entry(), entry()], { msgEncrypt }));
      expect(r.status).toBeLessThan(500);
      expect([TRACKING_ERROR_CODES.cipherError, TRACKING_ERROR_CODES.invalidInput]).toContain(r.code);
    }
    expect(await storedCount()).toBe(0);
  });

  it('malformed entries refuse the whole batch (40007): partial batches are never stored', async () => {
    const s = await session();
    const bad: unknown[] = [
      [entry(), { ...entry(), action: 99 }, entry()],
      [entry(), { ...entry(), seqId: 0 }],
      [entry(), { ...entry(), logmap: [] }],
      [entry(), { ...entry(), entryId: '' }],
      [entry(), { ...entry(), logmap: { big: 'x'.repeat(TRACKING_LIMITS.logmapMaxBytes) } }],
      [entry(), 'not an entry'],
    ];
    for (const list of bad) {
      const r = await post(TRACKING_PATHS.trackInfo, batch(s, list as unknown[]));
      expect(r.code).toBe(TRACKING_ERROR_CODES.invalidEntry);
      expect(r.msg).toMatch(/^entries\[1\]/);
    }
    const miscounted = await post(TRACKING_PATHS.trackInfo, batch(s, [entry(), entry()], { batchCount: 3 }));
    expect(miscounted.code).toBe(TRACKING_ERROR_CODES.invalidEntry);
    expect(await storedCount()).toBe(0);
  });

  it('oversized bodies get 40013 with the limit named; nothing is stored', async () => {
    const s = await session();
    const body = batch(s, [entry()]);
    const huge = JSON.stringify({ ...body, pad: 'x'.repeat(TRACKING_LIMITS.batchBodyMaxBytes) });
    const r = await post(TRACKING_PATHS.trackInfo, huge);
    expect(r).toMatchObject({ status: 413, code: TRACKING_ERROR_CODES.payloadTooLarge });
    expect(r.msg).toContain(String(TRACKING_LIMITS.batchBodyMaxBytes));
    const small = await post(TRACKING_PATHS.accessToken, JSON.stringify({ app_key: KEY, pad: 'x'.repeat(TRACKING_LIMITS.smallBodyMaxBytes) }));
    expect(small.code).toBe(TRACKING_ERROR_CODES.payloadTooLarge);
    expect(await storedCount()).toBe(0);
  });

  it('bad envelopes get clear codes, never a 5xx: bad JSON, wrong type, missing fields, expired token', async () => {
    const s = await session();
    const good = batch(s, [entry()]);
    const cases: Array<[unknown, string, number]> = [
      ['{not json', 'application/json', TRACKING_ERROR_CODES.invalidInput],
      ['[]', 'application/json', TRACKING_ERROR_CODES.invalidInput],
      ['', 'text/plain', TRACKING_ERROR_CODES.invalidInput],
      [good, 'application/xml', TRACKING_ERROR_CODES.unsupportedMediaType],
      [{ ...good, queueId: '12' }, 'application/json', TRACKING_ERROR_CODES.invalidInput],
      [{ ...good, sign: 'zz' }, 'application/json', TRACKING_ERROR_CODES.invalidInput],
      [{ ...good, batchCount: 101 }, 'application/json', TRACKING_ERROR_CODES.invalidInput],
      [{ ...good, token: 'forged.token' }, 'application/json', TRACKING_CODES.tokenFailure],
      [{ ...good, produceId: 'other' }, 'application/json', TRACKING_ERROR_CODES.signMismatch],
    ];
    for (const [body, type, code] of cases) {
      const r = await post(TRACKING_PATHS.trackInfo, body, type);
      expect(r.status, JSON.stringify(r)).toBeLessThan(500);
      expect(r.code, r.msg).toBe(code);
      expect(r.msg.length).toBeGreaterThan(5);
    }
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + TRACKING_TOKEN.ttlMs + 1);
    expect((await post(TRACKING_PATHS.trackInfo, good)).code).toBe(TRACKING_CODES.tokenFailure);
    expect(await storedCount()).toBe(0);
  });
});

describe('message and monitoring', () => {
  it('stores a client error report whose sign matches; refuses a wrong sign (40003) and an unknown key (40001)', async () => {
    const body = { deviceId: 'd', appKey: KEY, appVersion: '1', platform: 'pc-web', platformVersion: 'x', message: 'boom' };
    expect((await post(TRACKING_PATHS.message, { ...body, sign: signMessage(KEY, 'd', 'boom') })).code).toBe(0);
    expect((await post(TRACKING_PATHS.message, { ...body, sign: signMessage(KEY, 'd', 'other') })).code).toBe(TRACKING_ERROR_CODES.signMismatch);
    expect((await post(TRACKING_PATHS.message, { ...body, appKey: 'nope', sign: signMessage('nope', 'd', 'boom') })).code).toBe(TRACKING_CODES.appKeyError);
    const rows = await t.database.db.selectFrom('tracking_messages').selectAll().execute();
    expect(rows.map((r) => r.message)).toEqual(['boom']);
  });

  it('the monitoring path stores performance samples sent as text/plain and validates them', async () => {
    const perf = { appKey: KEY, deviceId: 'd', kind: 'perf', name: 'LCP', value: 1234.5, rating: 'good', page: '/pricing' };
    expect((await post(TRACKING_PATHS.monitor, JSON.stringify(perf), 'text/plain')).code).toBe(0);
    expect((await post(TRACKING_PATHS.monitor, { ...perf, kind: 'nope' })).code).toBe(TRACKING_ERROR_CODES.invalidInput);
    expect((await post(TRACKING_PATHS.monitor, { ...perf, appKey: 'nope' })).code).toBe(TRACKING_CODES.appKeyError);
    const rows = await t.database.db.selectFrom('tracking_monitor').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'LCP', value: 1234.5, page: '/pricing' });
  });
});

describe('message limits (docs/tracking-protocol.md "message")', () => {
  const LIMITS = TRACKING_MESSAGE_LIMITS;
  /** About 3.9 KB, under the 4,000-character message cap. */
  const text = (n: number) => `${n} `.padEnd(3900, 'x');
  let proxied: TestApp;
  beforeEach(async () => {
    proxied = await createTestApp({ TRACKING_APP_KEYS: KEY, TRUST_PROXY: 'true' });
  });
  afterEach(() => proxied.close());

  async function send(ip: string, deviceId: string, message: string) {
    const body = { deviceId, appKey: KEY, appVersion: '1', platform: 'pc-web', platformVersion: 'x', message, sign: signMessage(KEY, deviceId, message) };
    const res = await proxied.app.request(TRACKING_PATHS.message, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
      body: JSON.stringify(body),
    });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), ...((await res.json()) as { code: number; msg: string }) };
  }
  const stored = async () => (await proxied.database.db.selectFrom('tracking_messages').select(['device_id', 'message']).execute()).length;

  it('500 messages of 3.9 KB from one device and IP: the device budget is stored, the rest refused with 429 and Retry-After; other senders unaffected', async () => {
    const answers = [];
    for (let i = 0; i < 500; i++) answers.push(await send('203.0.113.7', 'flood', text(i)));
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBe(500 - LIMITS.perDevicePerWindow);
    expect(await stored()).toBe(LIMITS.perDevicePerWindow);
    expect(refused[0]).toMatchObject({ code: TRACKING_ERROR_CODES.rateLimited, msg: expect.stringContaining('device') });
    expect(TRACKING_ERROR_CODES.rateLimited).toBe(ERROR_CODES.rateLimited);
    expect(Number(refused[0]!.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused[0]!.retryAfter)).toBeLessThanOrEqual(LIMITS.windowMs / 1000);
    // Another device on another address, and another device behind the flooding address, are still heard.
    expect((await send('198.51.100.4', 'other', 'boom')).code).toBe(0);
    expect((await send('203.0.113.7', 'neighbour', 'boom')).code).toBe(0);
    expect(await stored()).toBe(LIMITS.perDevicePerWindow + 2);
  });

  it('500 messages from one IP, each naming a new device id: the address budget is stored, the rest refused', async () => {
    const answers = [];
    for (let i = 0; i < 500; i++) answers.push(await send('2001:db8:5:6::1', `device-${i}`, text(i)));
    expect(answers.filter((a) => a.status === 429)).toHaveLength(500 - LIMITS.perIpPerWindow);
    expect(answers.at(-1)).toMatchObject({ code: TRACKING_ERROR_CODES.rateLimited, msg: expect.stringContaining('address') });
    expect(await stored()).toBe(LIMITS.perIpPerWindow);
    // Another address of the same IPv6 /64 shares the budget; another /64 does not.
    expect((await send('2001:db8:5:6::99', 'fresh', 'boom')).status).toBe(429);
    expect((await send('2001:db8:5:7::1', 'fresh', 'boom')).code).toBe(0);
  });

  it('a device is held to its daily budget even when it keeps under the per-minute one; a new day window lets it in again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    let sent = 0;
    let minute = 0;
    while (sent < LIMITS.perDevicePerDay + LIMITS.perDevicePerWindow) {
      vi.setSystemTime(start + minute++ * LIMITS.windowMs);
      for (let i = 0; i < LIMITS.perDevicePerWindow; i++, sent++) await send(`192.0.2.${minute % 200}`, 'steady', text(sent));
    }
    expect(await stored()).toBe(LIMITS.perDevicePerDay);
    // A fresh minute: the device is under its per-minute budget and refused for the day, until its day window ends.
    vi.setSystemTime(start + minute * LIMITS.windowMs);
    const refused = await send('192.0.2.250', 'steady', 'late');
    expect(refused).toMatchObject({ status: 429, code: TRACKING_ERROR_CODES.rateLimited, msg: expect.stringContaining('today') });
    expect(Number(refused.retryAfter)).toBe((LIMITS.dayMs - minute * LIMITS.windowMs) / 1000);
    expect(await stored()).toBe(LIMITS.perDevicePerDay);
    vi.setSystemTime(start + LIMITS.dayMs + 1);
    expect((await send('192.0.2.251', 'steady', 'next day')).code).toBe(0);
  });
});

describe('budgets of the other collector calls (docs/tracking-protocol.md "Limits")', () => {
  let proxied: TestApp;
  beforeEach(async () => {
    proxied = await createTestApp({ TRACKING_APP_KEYS: KEY, TRUST_PROXY: 'true' });
  });
  afterEach(() => proxied.close());

  async function call(path: string, ip: string, body: unknown) {
    const res = await proxied.app.request(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { code: number; msg: string; data: Record<string, unknown> | null };
    return { status: res.status, retryAfter: res.headers.get('retry-after'), ...json };
  }
  const count = async (table: 'tracking_monitor' | 'tracking_events') =>
    Number((await proxied.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  /** A 429 of the collector: code 40029, Retry-After within the window, and a message naming what ran out. */
  const refused = (r: Awaited<ReturnType<typeof call>>, windowMs: number, names: string) => {
    expect(r).toMatchObject({ status: 429, code: TRACKING_ERROR_CODES.rateLimited, msg: expect.stringContaining(names) });
    expect(Number(r.retryAfter)).toBeGreaterThan(0);
    expect(Number(r.retryAfter)).toBeLessThanOrEqual(windowMs / 1000);
  };

  describe('monitor/report', () => {
    const LIMITS = TRACKING_MONITOR_LIMITS;
    /** About 4 KB a report: the largest message and page the schema lets through. */
    const report = (deviceId: string, n: number) => ({
      appKey: KEY,
      deviceId,
      kind: 'error',
      name: 'tracking',
      page: `/${n}`.padEnd(1024, 'p'),
      message: `${n} `.padEnd(TRACKING_LIMITS.messageMaxLength, 'x'),
    });

    it('500 reports from one device and IP: the device budget is stored, the rest refused with 429 and Retry-After; other senders unaffected', async () => {
      const answers = [];
      for (let i = 0; i < 500; i++) answers.push(await call(TRACKING_PATHS.monitor, '203.0.113.7', report('flood', i)));
      const over = answers.filter((a) => a.status === 429);
      expect(over).toHaveLength(500 - LIMITS.perDevicePerWindow);
      refused(over[0]!, LIMITS.windowMs, 'device');
      expect(await count('tracking_monitor')).toBe(LIMITS.perDevicePerWindow);
      expect((await call(TRACKING_PATHS.monitor, '198.51.100.4', report('other', 0))).code).toBe(0);
      expect((await call(TRACKING_PATHS.monitor, '203.0.113.7', report('neighbour', 0))).code).toBe(0);
      expect(await count('tracking_monitor')).toBe(LIMITS.perDevicePerWindow + 2);
    });

    it('reports from one IP, each naming a new device id: the address budget is stored, the rest refused; another address is heard', async () => {
      const sent = LIMITS.perIpPerWindow + 100;
      const answers = [];
      for (let i = 0; i < sent; i++) answers.push(await call(TRACKING_PATHS.monitor, '203.0.113.8', report(`device-${i}`, i)));
      expect(answers.filter((a) => a.status === 429)).toHaveLength(sent - LIMITS.perIpPerWindow);
      refused(answers.at(-1)!, LIMITS.windowMs, 'address');
      expect(await count('tracking_monitor')).toBe(LIMITS.perIpPerWindow);
      expect((await call(TRACKING_PATHS.monitor, '198.51.100.5', report('fresh', 0))).code).toBe(0);
    });

    it('a device is held to its daily budget while keeping under the per-minute one; the next day it is heard again', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const start = Date.now();
      let sent = 0;
      let minute = 0;
      while (sent < LIMITS.perDevicePerDay + LIMITS.perDevicePerWindow) {
        vi.setSystemTime(start + minute++ * LIMITS.windowMs);
        for (let i = 0; i < LIMITS.perDevicePerWindow; i++, sent++) await call(TRACKING_PATHS.monitor, '192.0.2.1', report('steady', sent));
      }
      expect(await count('tracking_monitor')).toBe(LIMITS.perDevicePerDay);
      vi.setSystemTime(start + minute * LIMITS.windowMs);
      const late = await call(TRACKING_PATHS.monitor, '192.0.2.1', report('steady', sent));
      expect(late).toMatchObject({ status: 429, code: TRACKING_ERROR_CODES.rateLimited, msg: expect.stringContaining('today') });
      expect(Number(late.retryAfter)).toBe((LIMITS.dayMs - minute * LIMITS.windowMs) / 1000);
      vi.setSystemTime(start + LIMITS.dayMs + 1);
      expect((await call(TRACKING_PATHS.monitor, '192.0.2.1', report('steady', 0))).code).toBe(0);
    });

    it('reports without a device id are counted by their address, so one sender cannot use up a budget shared by all of them', async () => {
      for (let i = 0; i < LIMITS.perDevicePerWindow; i++) expect((await call(TRACKING_PATHS.monitor, '203.0.113.9', report('', i))).code).toBe(0);
      refused(await call(TRACKING_PATHS.monitor, '203.0.113.9', report('', 0)), LIMITS.windowMs, 'device');
      expect((await call(TRACKING_PATHS.monitor, '198.51.100.6', report('', 0))).code).toBe(0);
    });

    it('each stored field has a size cap: a longer page, message or name is refused with 40000 and nothing is stored', async () => {
      const base = report('d', 0);
      for (const over of [{ page: 'p'.repeat(1025) }, { message: 'x'.repeat(TRACKING_LIMITS.messageMaxLength + 1) }, { name: 'n'.repeat(65) }, { deviceId: 'd'.repeat(TRACKING_LIMITS.fieldMaxLength + 1) }]) {
        const r = await call(TRACKING_PATHS.monitor, '203.0.113.10', { ...base, ...over });
        expect(r, JSON.stringify(Object.keys(over))).toMatchObject({ status: 400, code: TRACKING_ERROR_CODES.invalidInput });
      }
      expect(await count('tracking_monitor')).toBe(0);
    });
  });

  describe('access_token', () => {
    const LIMITS = TRACKING_TOKEN_LIMITS;
    const ask = (ip: string, deviceId: string) => call(TRACKING_PATHS.accessToken, ip, { app_key: KEY, device_id: deviceId });

    it('one device asking again and again gets the device budget of tokens, then 429 with Retry-After; other devices are unaffected', async () => {
      const answers = [];
      for (let i = 0; i < 100; i++) answers.push(await ask('203.0.113.11', 'loop'));
      expect(answers.filter((a) => a.code === 0 && typeof a.data?.token === 'string')).toHaveLength(LIMITS.perDevicePerWindow);
      const over = answers.filter((a) => a.status === 429);
      expect(over).toHaveLength(100 - LIMITS.perDevicePerWindow);
      refused(over[0]!, LIMITS.windowMs, 'device');
      expect(over[0]!.data).toBeNull();
      expect((await ask('203.0.113.11', 'neighbour')).code).toBe(0);
      expect((await ask('198.51.100.7', 'other')).code).toBe(0);
    });

    it('one IP inventing a device id per call gets the address budget of tokens; another address is unaffected', async () => {
      const sent = LIMITS.perIpPerWindow + 50;
      const answers = [];
      for (let i = 0; i < sent; i++) answers.push(await ask('2001:db8:7:7::1', `device-${i}`));
      expect(answers.filter((a) => a.code === 0)).toHaveLength(LIMITS.perIpPerWindow);
      refused(answers.at(-1)!, LIMITS.windowMs, 'address');
      // Another address of the same IPv6 /64 shares the budget; another /64 does not.
      expect((await ask('2001:db8:7:7::2', 'fresh')).status).toBe(429);
      expect((await ask('2001:db8:7:8::1', 'fresh')).code).toBe(0);
    });
  });

  describe('track_info', () => {
    const LIMITS = TRACKING_BATCH_LIMITS;
    async function sessionFor(ip: string, deviceId: string) {
      const token = (await call(TRACKING_PATHS.accessToken, ip, { app_key: KEY, device_id: deviceId })).data as { token: string; produceId: string; sign: string };
      const config = await call(TRACKING_PATHS.trackConfig, ip, { token: token.token, sign: token.sign });
      return { ...token, ak: (config.data as { ak: string }).ak };
    }

    it('a device sending batch after batch gets its per-minute budget stored, then 429 with Retry-After, also with a new token; another device is unaffected; the next window lets it in', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const start = Date.now();
      const s = await sessionFor('203.0.113.12', 'busy');
      const sent = LIMITS.perDevicePerWindow + 50;
      const answers = [];
      for (let i = 0; i < sent; i++) answers.push(await call(TRACKING_PATHS.trackInfo, '203.0.113.12', batch(s, [entry(), entry()])));
      const over = answers.filter((a) => a.status === 429);
      expect(over).toHaveLength(sent - LIMITS.perDevicePerWindow);
      refused(over[0]!, LIMITS.windowMs, 'device');
      expect(await count('tracking_events')).toBe(2 * LIMITS.perDevicePerWindow);
      // The budget belongs to the device, not the token: a fresh token does not buy a fresh one.
      const again = await sessionFor('203.0.113.12', 'busy');
      expect((await call(TRACKING_PATHS.trackInfo, '203.0.113.12', batch(again, [entry()]))).status).toBe(429);
      const other = await sessionFor('203.0.113.12', 'calm');
      expect((await call(TRACKING_PATHS.trackInfo, '203.0.113.12', batch(other, [entry()]))).code).toBe(0);
      expect(await count('tracking_events')).toBe(2 * LIMITS.perDevicePerWindow + 1);
      vi.setSystemTime(start + LIMITS.windowMs);
      expect((await call(TRACKING_PATHS.trackInfo, '203.0.113.12', batch(s, [entry()]))).code).toBe(0);
    });
  });
});
