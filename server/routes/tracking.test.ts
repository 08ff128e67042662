// Collector tests: token flow, encrypted batches sealed by the browser's own cipher, and every kind of bad input
// (SPEC.md §7, §8).
import { describe, expect, it, vi } from 'vitest';
import { sealEntries, signMessage } from '../../src/lib/tracking/cipher';
import {
  TRACKING_CODES,
  TRACKING_ERROR_CODES,
  TRACKING_LIMITS,
  TRACKING_PATHS,
  TRACKING_TOKEN,
} from '../../src/lib/product-rules';
import { createTestApp } from '../test-support/app';
import { batch, entry, KEY, useCollector } from './tracking.fixtures';

const collector = useCollector();
const { post, session, storedCount } = collector;

describe('access_token (SPEC.md §7)', () => {
  it('issues an expiring server-signed token with produceId, sign and configVersion for a registered key', async () => {
    const r = await post(TRACKING_PATHS.accessToken, { app_key: KEY, device_id: 'd' });
    expect(r.code).toBe(0);
    expect(r.data).toMatchObject({
      produceId: expect.any(String),
      sign: expect.stringMatching(/^[0-9a-f]{64}$/),
      configVersion: TRACKING_TOKEN.configVersion,
    });
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
    const altered = `${Buffer.from(JSON.stringify({ ...claims, exp: (claims.exp as number) + 1e9 })).toString('base64url')}.${mac}`;
    expect((await post(TRACKING_PATHS.trackConfig, { token: altered, sign: s.sign })).code).toBe(
      TRACKING_CODES.tokenFailure,
    );
    const other = await createTestApp({
      TRACKING_APP_KEYS: KEY,
      SECRET_KEY: 'another-server-secret-another-server-0123',
    });
    const foreign = await other.app.request(TRACKING_PATHS.accessToken, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ app_key: KEY }),
    });
    const ft = ((await foreign.json()) as { data: { token: string; sign: string } }).data;
    await other.close();
    expect((await post(TRACKING_PATHS.trackConfig, ft)).code).toBe(TRACKING_CODES.tokenFailure);
    expect((await post(TRACKING_PATHS.trackConfig, { token: s.token, sign: 'ab'.repeat(32) })).code).toBe(
      TRACKING_CODES.tokenFailure,
    );
    expect((await post(TRACKING_PATHS.trackConfig, { token: 'x.y.z', sign: s.sign })).code).toBe(
      TRACKING_CODES.tokenFailure,
    );
  });

  it('a token outlives a restart and is accepted by every instance sharing the server secret (no TRACKING_SECRET needed)', async () => {
    const s = await session();
    const restarted = await createTestApp({ TRACKING_APP_KEYS: KEY });
    try {
      const res = await restarted.app.request(TRACKING_PATHS.trackConfig, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token: s.token, sign: s.sign }),
      });
      const body = (await res.json()) as { code: number; data: { ak: string } };
      expect(body.code).toBe(TRACKING_CODES.ok);
      expect(body.data.ak).toBe(s.ak);
    } finally {
      await restarted.close();
    }
  });

  it('TRACKING_SECRET, when set, signs tokens instead of the server secret', async () => {
    const s = await session();
    const own = await createTestApp({
      TRACKING_APP_KEYS: KEY,
      TRACKING_SECRET: 'tracking-only-secret-tracking-only-0123',
    });
    try {
      const res = await own.app.request(TRACKING_PATHS.trackConfig, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token: s.token, sign: s.sign }),
      });
      expect(((await res.json()) as { code: number }).code).toBe(TRACKING_CODES.tokenFailure);
    } finally {
      await own.close();
    }
  });

  it('an expired token gets 40002', async () => {
    const s = await session();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + TRACKING_TOKEN.ttlMs + 1);
    expect((await post(TRACKING_PATHS.trackConfig, { token: s.token, sign: s.sign })).code).toBe(
      TRACKING_CODES.tokenFailure,
    );
  });
});

describe('track_info', () => {
  it('decrypts a batch sealed by the browser cipher and stores every entry once', async () => {
    const s = await session();
    const entries = [entry(), entry(), entry()];
    const r = await post(TRACKING_PATHS.trackInfo, batch(s, entries));
    expect(r).toMatchObject({ code: 0, data: { stored: 3, duplicates: 0 } });
    const rows = await collector.t.database.db.selectFrom('tracking_events').selectAll().orderBy('seq_id').execute();
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
    const beacon = await post(
      TRACKING_PATHS.trackInfo,
      JSON.stringify(batch(s, [...entries, entry()])),
      'text/plain;charset=UTF-8',
    );
    expect(beacon).toMatchObject({ code: 0, data: { stored: 1, duplicates: 2 } });
    expect(await storedCount()).toBe(3);
  });

  it("a batch sealed with another token's key is refused (40003) and nothing is stored", async () => {
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
      Buffer.from(sealed, 'base64')
        .subarray(0, Buffer.from(sealed, 'base64').length - 16)
        .toString('base64'), // last block cut: bad padding/JSON
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
    const small = await post(
      TRACKING_PATHS.accessToken,
      JSON.stringify({ app_key: KEY, pad: 'x'.repeat(TRACKING_LIMITS.smallBodyMaxBytes) }),
    );
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
    const body = {
      deviceId: 'd',
      appKey: KEY,
      appVersion: '1',
      platform: 'pc-web',
      platformVersion: 'x',
      message: 'boom',
    };
    expect((await post(TRACKING_PATHS.message, { ...body, sign: signMessage(KEY, 'd', 'boom') })).code).toBe(0);
    expect((await post(TRACKING_PATHS.message, { ...body, sign: signMessage(KEY, 'd', 'other') })).code).toBe(
      TRACKING_ERROR_CODES.signMismatch,
    );
    expect(
      (await post(TRACKING_PATHS.message, { ...body, appKey: 'nope', sign: signMessage('nope', 'd', 'boom') })).code,
    ).toBe(TRACKING_CODES.appKeyError);
    const rows = await collector.t.database.db.selectFrom('tracking_messages').selectAll().execute();
    expect(rows.map((r) => r.message)).toEqual(['boom']);
  });

  it('the monitoring path stores performance samples sent as text/plain and validates them', async () => {
    const perf = {
      appKey: KEY,
      deviceId: 'd',
      kind: 'perf',
      name: 'LCP',
      value: 1234.5,
      rating: 'good',
      page: '/pricing',
    };
    expect((await post(TRACKING_PATHS.monitor, JSON.stringify(perf), 'text/plain')).code).toBe(0);
    expect((await post(TRACKING_PATHS.monitor, { ...perf, kind: 'nope' })).code).toBe(
      TRACKING_ERROR_CODES.invalidInput,
    );
    expect((await post(TRACKING_PATHS.monitor, { ...perf, appKey: 'nope' })).code).toBe(TRACKING_CODES.appKeyError);
    const rows = await collector.t.database.db.selectFrom('tracking_monitor').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'LCP', value: 1234.5, page: '/pricing' });
  });
});
