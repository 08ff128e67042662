// Cross-tab tests of the worker API: one IndexedDB queue (fake-indexeddb), Web Locks leader, BroadcastChannel notices,
// takeover.
import { createDecipheriv } from 'node:crypto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { IdbQueue, openQueueDatabase } from '../lib/tracking/idb-queue';
import { entries } from '../lib/tracking/engine.fixtures';
import { NetworkError, type Transport } from '../lib/tracking/credentials';
import { TRACKING_BROWSER, TRACKING_LIMITS, TRACKING_PATHS } from '../lib/product-rules';
import type { Answer, QueuedEntry, TrackInfoBody, TrackingWorkerApi } from '../lib/tracking/types';
import { appInfo, createTrackingWorker } from './tracking-api';

const AK = 'cd'.repeat(32);

/**
 * Reads a sealed batch as the collector would: base64(IV ‖ AES-256-CBC ciphertext) under the hex ak
 * (docs/tracking-protocol.md).
 */
function openBatch(msgEncrypt: string, ak: string): string {
  const raw = Buffer.from(msgEncrypt, 'base64');
  const decipher = createDecipheriv('aes-256-cbc', Buffer.from(ak, 'hex'), raw.subarray(0, 16));
  return Buffer.concat([decipher.update(raw.subarray(16)), decipher.final()]).toString('utf8');
}
const received: string[] = [];
const tabs: TrackingWorkerApi[] = [];

const transport: Transport = {
  async post<T>(url: string, body: unknown): Promise<Answer<T>> {
    if (url.endsWith(TRACKING_PATHS.accessToken))
      return { code: 0, msg: 'ok', data: { token: 't', produceId: 'p', sign: 's', configVersion: '1' } as T };
    if (url.endsWith(TRACKING_PATHS.trackConfig))
      return { code: 0, msg: 'ok', data: { ak: AK, batchSize: 4, bufferS: 0.2 } as T };
    const batch = body as TrackInfoBody;
    for (const e of JSON.parse(openBatch(batch.msgEncrypt, AK)) as QueuedEntry[]) received.push(e.entryId);
    return { code: 0, msg: 'ok' };
  },
};

function openTab(factory: IDBFactory, name: string, via: Transport = transport) {
  const api = createTrackingWorker({
    openQueue: async () => new IdbQueue(await openQueueDatabase(factory, name)),
    transport: via,
    locks: navigator.locks,
    channel: new BroadcastChannel(`${name}-channel`),
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
  });
  tabs.push(api);
  return api;
}

const until = async (check: () => Promise<boolean> | boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** Holds the leader lock as another tab would; returns the release. */
function holdLock(): () => void {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  void navigator.locks.request(TRACKING_BROWSER.leaderLock, () => held);
  return release;
}

afterEach(() => {
  for (const t of tabs.splice(0)) t.stop();
  received.length = 0;
});

describe('shared queue across tabs', () => {
  it('one queue, one leader: three tabs enqueue, only the leader sends, every entry arrives', async () => {
    const factory = new IDBFactory();
    const name = `q-${Math.random()}`;
    const [a, b, c] = [openTab(factory, name), openTab(factory, name), openTab(factory, name)];
    for (const [i, t] of [a, b, c].entries()) expect(await t!.start({ appKey: `k-${name}` }, `tab${i}`)).toBe(true);
    await until(async () => (await Promise.all([a!, b!, c!].map((t) => t.status()))).some((s) => s.leader));
    const leaders = (await Promise.all([a!, b!, c!].map((t) => t.status()))).filter((s) => s.leader);
    expect(leaders).toHaveLength(1);
    const sent = [...entries(3, 'tab0'), ...entries(3, 'tab1'), ...entries(3, 'tab2')];
    await a!.enqueue(sent.slice(0, 3));
    await b!.enqueue(sent.slice(3, 6));
    await c!.enqueue(sent.slice(6));
    await until(() => new Set(received).size === 9);
    expect(new Set(received)).toEqual(new Set(sent.map((e) => e.entryId)));
    expect((await a!.status()).queued).toBe(0);
  });

  it('takeover: when the leader tab closes, another tab takes over and sends what was left', async () => {
    const factory = new IDBFactory();
    const name = `q-${Math.random()}`;
    const first = openTab(factory, name);
    await first.start({ appKey: `k-${name}` }, 'first');
    await until(async () => (await first.status()).leader);
    const second = openTab(factory, name);
    await second.start({ appKey: `k-${name}` }, 'second');
    expect((await second.status()).leader).toBe(false);
    // Written straight into the shared queue, as a leader that died before sending would leave it.
    const left = entries(2, 'first');
    await new IdbQueue(await openQueueDatabase(factory, name)).add(left);
    first.stop();
    await until(async () => (await second.status()).leader);
    await until(() => left.every((e) => received.includes(e.entryId)));
    expect((await second.status()).queued).toBe(0);
  });

  it('durable: entries stay in IndexedDB until a send succeeds, keyed by entry id (a second add is harmless)', async () => {
    const factory = new IDBFactory();
    const queue = new IdbQueue(await openQueueDatabase(factory, 'durable'));
    const list = entries(3, 't');
    await queue.add(list);
    await queue.add(list);
    expect(await queue.count()).toBe(3);
    const reopened = new IdbQueue(await openQueueDatabase(factory, 'durable'));
    expect((await reopened.peek(10)).map((e) => e.entryId)).toEqual(list.map((e) => e.entryId));
    expect((await reopened.forTab('t', 10)).length).toBe(3);
    await reopened.remove([list[0]!.entryId]);
    expect(await queue.count()).toBe(2);
  });

  it('enqueue confirms once the entries are durable, before the send: a leader whose send hangs still confirms at once', async () => {
    const factory = new IDBFactory();
    const name = `q-${Math.random()}`;
    let sends = 0;
    const hanging: Transport = {
      post: <T>(url: string, body: unknown, timeoutMs: number) =>
        url.endsWith(TRACKING_PATHS.trackInfo)
          ? (sends++, new Promise<Answer<T>>(() => {}))
          : transport.post<T>(url, body, timeoutMs),
    };
    const tab = openTab(factory, name, hanging);
    await tab.start({ appKey: `k-${name}`, immediateReport: true }, 'only');
    await until(async () => (await tab.status()).leader && (await tab.status()).flags.configValid);
    // Immediate mode makes the send due at once; the answer never comes, yet the page must learn the entry is stored.
    const confirmed = await Promise.race([
      tab.enqueue(entries(1, 'only')).then(() => true),
      new Promise((r) => setTimeout(() => r(false), 1000)),
    ]);
    expect(confirmed).toBe(true);
    await until(() => sends === 1);
    expect((await tab.status()).queued).toBe(1);
  });
});

describe('outage', () => {
  it("online: a leader waiting out a failed send sends when the page passes on the browser's online event", async () => {
    const factory = new IDBFactory();
    const name = `q-${Math.random()}`;
    let down = true;
    let failed = 0;
    const flaky: Transport = {
      async post<T>(url: string, body: unknown, timeoutMs: number): Promise<Answer<T>> {
        if (url.endsWith(TRACKING_PATHS.trackConfig))
          return { code: 0, msg: 'ok', data: { ak: AK, batchSize: 4, bufferS: 20 } as T };
        if (down && url.endsWith(TRACKING_PATHS.trackInfo)) throw (failed++, new NetworkError('offline'));
        return transport.post<T>(url, body, timeoutMs);
      },
    };
    const tab = openTab(factory, name, flaky);
    await tab.start({ appKey: `k-${name}` }, 'only');
    await until(async () => (await tab.status()).leader && (await tab.status()).flags.configValid);
    const list = entries(4, 'only');
    await tab.enqueue(list);
    // The full batch went at once and failed; its retry now waits about a second.
    await until(() => failed === 1);
    await new Promise((r) => setTimeout(r, 50));
    down = false;
    // Resolves once the waiting retry went: no timer had to fire.
    await tab.online();
    expect(list.every((e) => received.includes(e.entryId))).toBe(true);
    expect((await tab.status()).queued).toBe(0);
  });
});

describe('page-leave seals and stashes', () => {
  it("the worker seals this tab's unsent entries for its beacons and names the track_info URL on the config's domain", async () => {
    const factory = new IDBFactory();
    const name = `q-${Math.random()}`;
    const sealedCalls: Array<{ bodies: string[]; url: string }> = [];
    // Another tab leads (holds the lock) and is slow to send: the entries stay queued and must go by beacon on leave.
    const leaderHeld = holdLock();
    const tab = openTab(factory, name);
    await tab.start({ appKey: `k-${name}`, domain: 'https://collector.example/' }, 'mine', (bodies, url) =>
      sealedCalls.push({ bodies, url }),
    );
    const mine = entries(2, 'mine');
    await tab.enqueue(mine);
    await until(() => sealedCalls.some((c) => c.bodies.length === 1));
    const last = sealedCalls.at(-1)!;
    expect(last.url).toBe(`https://collector.example${TRACKING_PATHS.trackInfo}`);
    const body = JSON.parse(last.bodies[0]!) as TrackInfoBody;
    expect(body.batchCount).toBe(2);
    // Sealed, not plain: no entry's field names or values outside the ciphertext (whose base64 may hold any short id,
    // so the check looks for what base64 cannot spell).
    expect(last.bodies[0]).not.toContain('"entryId"');
    expect(last.bodies[0]).not.toContain(mine[0]!.oid);
    expect((JSON.parse(openBatch(body.msgEncrypt, AK)) as QueuedEntry[]).map((e) => e.entryId)).toEqual(
      mine.map((e) => e.entryId),
    );
    leaderHeld();
  });

  it('adopt: a stash is parsed and checked in the worker; its entries are stored, anything else is ignored', async () => {
    const factory = new IDBFactory();
    const name = `q-${Math.random()}`;
    const leaderHeld = holdLock();
    const tab = openTab(factory, name);
    await tab.start({ appKey: `k-${name}` }, 'mine');
    const left = entries(2, 'gone');
    await tab.adopt(JSON.stringify([...left, { entryId: 5 }, null, 'x']));
    await tab.adopt('{not json');
    await tab.adopt('{"entryId":"x"}');
    const stored = await new IdbQueue(await openQueueDatabase(factory, name)).peek(10);
    expect(stored.map((e) => [e.entryId, e.tab])).toEqual(left.map((e) => [e.entryId, 'gone']));
    leaderHeld();
  });
});

describe('app info', () => {
  it('the worker adds the platform from its own user agent (SPEC.md §5 "Mobile is detected by user-agent keywords")', () => {
    expect(appInfo('2', 'd1', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).toEqual({
      appVersion: '2',
      deviceId: 'd1',
      platform: 'mobile-web',
      platformVersion: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)',
    });
    expect(appInfo('2', 'd1', 'Mozilla/5.0 (X11; Linux x86_64)').platform).toBe('pc-web');
    expect(appInfo('2', 'd1', 'x'.repeat(1000)).platformVersion).toHaveLength(TRACKING_LIMITS.fieldMaxLength);
  });

  it('device id: created once in the shared database and the same for every tab, also when tabs start together', async () => {
    const factory = new IDBFactory();
    const name = `q-${Math.random()}`;
    const tabs = [openTab(factory, name), openTab(factory, name), openTab(factory, name)];
    await Promise.all(tabs.map((t, i) => t.start({ appKey: `k-${name}` }, `t${i}`)));
    const ids = await Promise.all(tabs.map(async (t) => (await t.status()).deviceId));
    expect(ids[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(1);
    const again = openTab(factory, name);
    await again.start({ appKey: `k-${name}` }, 'later');
    expect((await again.status()).deviceId).toBe(ids[0]);
  });
});
