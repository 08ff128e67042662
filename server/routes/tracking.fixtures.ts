// Shared set-up of the collector route tests: an app per test, sessions, entries and sealed batches made with the
// browser's own cipher.
import { afterEach, beforeEach, vi } from 'vitest';
import { signedText } from '../../src/lib/api-contract';
import { sealEntries, signBatch } from '../../src/lib/tracking/cipher';
import type { TrackEntry, TrackInfoBody } from '../../src/lib/tracking/types';
import { TRACKING_PATHS } from '../../src/lib/product-rules';
import { createTestApp, type TestApp } from '../test-support/app';
import { TRACK_ENTRY } from '../test-support/tracking-events';

export const KEY = 'test-app';

/** The accessToken request of device dev-1 of app KEY, as the browser sends it. */
export const DEVICE_1 = {
  app_key: KEY,
  device_id: 'dev-1',
  app_version: '1',
  platform: 'pc-web',
  platform_version: 'x',
  log_version: '1',
};

/** A collector app for each test of the calling file (batchSize 7, bufferS 3), with calls to it. */
export function useCollector() {
  let t!: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ TRACKING_APP_KEYS: KEY, TRACKING_BATCH_SIZE: '7', TRACKING_BUFFER_S: '3' });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await t.close();
  });

  async function post(path: string, body: unknown, type = 'application/json') {
    const res = await t.app.request(path, {
      method: 'POST',
      headers: { 'Content-Type': type },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const json = (await res.json()) as { code: number; msg: string; data: Record<string, unknown> | null };
    return { status: res.status, ...json };
  }

  return {
    get t() {
      return t;
    },
    post,
    /** A token and its config (ak) for device dev-1. */
    async session() {
      const token = await post(TRACKING_PATHS.accessToken, DEVICE_1);
      const data = token.data as { token: string; produceId: string; sign: string };
      const config = await post(TRACKING_PATHS.trackConfig, { token: data.token, sign: data.sign });
      return { ...data, ak: (config.data as { ak: string }).ak };
    },
    async storedCount() {
      const row = await t.database.db
        .selectFrom('tracking_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

/** A collector app behind a trusted proxy for each test of the calling file, called as from a given client address. */
export function useProxiedCollector() {
  let proxied!: TestApp;
  beforeEach(async () => {
    proxied = await createTestApp({ TRACKING_APP_KEYS: KEY, TRUST_PROXY: 'true' });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await proxied.close();
  });
  return {
    get app() {
      return proxied;
    },
    async call(path: string, ip: string, body: unknown) {
      const res = await proxied.app.request(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { code: number; msg: string; data: Record<string, unknown> | null };
      return { status: res.status, retryAfter: res.headers.get('retry-after'), ...json };
    },
  };
}

let n = 0;
/** A valid entry of its own: a new entryId, seqId and logmap each call. */
export function entry(overrides: Partial<TrackEntry> = {}): TrackEntry {
  n++;
  return { ...TRACK_ENTRY, entryId: `e-${n}-${Math.random()}`, seqId: n, logmap: { n }, ...overrides };
}

/**
 * A track_info body for `entries`, sealed and signed with the session's ak; `patch` overrides fields, `resign: false`
 * keeps the sign of the unpatched ciphertext.
 */
export function batch(
  s: { token: string; produceId: string; ak: string },
  entries: unknown[],
  patch: Partial<TrackInfoBody> = {},
  resign = true,
): TrackInfoBody {
  const msgEncrypt = patch.msgEncrypt ?? sealEntries(entries as TrackEntry[], s.ak);
  const fields = {
    token: s.token,
    produceId: s.produceId,
    queueId: '123456789',
    sendTime: Date.now(),
    batchCount: entries.length,
    ...patch,
    msgEncrypt,
  };
  const sign = resign
    ? signBatch(signedText(fields), s.ak)
    : signBatch(signedText({ ...fields, msgEncrypt: sealEntries(entries as TrackEntry[], s.ak) }), s.ak);
  return { ...fields, sign: patch.sign ?? sign };
}
