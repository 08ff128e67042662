// Cross-tab tests of the worker API: one IndexedDB queue (fake-indexeddb), Web Locks leader, BroadcastChannel notices, takeover.
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { openBatch } from '../../server/tracking/cipher';
import { IdbQueue, openQueueDatabase } from '../lib/tracking/idb-queue';
import type { Transport } from '../lib/tracking/engine';
import { TRACKING_PATHS } from '../lib/spec/tracking';
import type { Answer, QueuedEntry, TrackInfoBody } from '../lib/tracking/types';
import { createTrackingWorker, type TrackingWorkerApi } from './tracking-api';

const AK = 'cd'.repeat(32);
const received: string[] = [];
const tabs: TrackingWorkerApi[] = [];

const transport: Transport = {
  async post<T>(url: string, body: unknown): Promise<Answer<T>> {
    if (url.endsWith(TRACKING_PATHS.accessToken)) return { code: 0, msg: 'ok', data: { token: 't', produceId: 'p', sign: 's', configVersion: '1' } as T };
    if (url.endsWith(TRACKING_PATHS.trackConfig)) return { code: 0, msg: 'ok', data: { ak: AK, batchSize: 4, bufferS: 0.2 } as T };
    const batch = body as TrackInfoBody;
    for (const e of JSON.parse(openBatch(batch.msgEncrypt, AK)) as QueuedEntry[]) received.push(e.entryId);
    return { code: 0, msg: 'ok' };
  },
};

function openTab(factory: IDBFactory, name: string) {
  const api = createTrackingWorker({
    openQueue: async () => new IdbQueue(await openQueueDatabase(factory, name)),
    transport,
    locks: navigator.locks,
    channel: new BroadcastChannel(`${name}-channel`),
  });
  tabs.push(api);
  return api;
}

let n = 0;
const entries = (count: number, tab: string): QueuedEntry[] =>
  Array.from({ length: count }, () => ({ entryId: `id-${++n}`, coldStartId: 'c', seqId: n, uid: '', time: n, oid: 'a_b_c', action: 1, foid: '', ffid: '', logmap: {}, tab }));

const until = async (check: () => Promise<boolean> | boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

afterEach(() => {
  for (const t of tabs.splice(0)) t.stop();
  received.length = 0;
});

describe('shared queue across tabs', () => {
  it('one queue, one leader: three tabs enqueue, only the leader sends, every entry arrives', async () => {
    const factory = new IDBFactory();
    const name = `q-${Math.random()}`;
    const [a, b, c] = [openTab(factory, name), openTab(factory, name), openTab(factory, name)];
    for (const [i, t] of [a, b, c].entries()) expect(await t!.start({ appKey: `k-${name}` }, { appVersion: '1', deviceId: 'd', platform: 'p', platformVersion: 'v' }, `tab${i}`)).toBe(true);
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
    const info = { appVersion: '1', deviceId: 'd', platform: 'p', platformVersion: 'v' };
    const first = openTab(factory, name);
    await first.start({ appKey: `k-${name}` }, info, 'first');
    await until(async () => (await first.status()).leader);
    const second = openTab(factory, name);
    await second.start({ appKey: `k-${name}` }, info, 'second');
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
});
