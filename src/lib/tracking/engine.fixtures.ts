// Shared set-up of the tracking engine tests: an in-memory queue and cache, a scripted collector, fake timers, entries.
import { afterEach, beforeEach, vi } from 'vitest';
import { TRACKING_PATHS } from '../product-rules';
import { TrackingEngine, type EntryQueue } from './engine';
import type { CredentialsCache, Transport } from './credentials';
import type { Answer, QueuedEntry } from './types';

/** In-memory stand-ins for the IndexedDB queue and cache (tests only). */
export class MemoryQueue implements EntryQueue, CredentialsCache {
  entries: QueuedEntry[] = [];
  meta = new Map<string, unknown>();
  async add(list: QueuedEntry[]) {
    for (const e of list) if (!this.entries.some((x) => x.entryId === e.entryId)) this.entries.push(e);
  }
  async peek(limit: number) {
    return this.entries.slice(0, limit);
  }
  async forTab(tab: string, limit: number) {
    return this.entries.filter((e) => e.tab === tab).slice(0, limit);
  }
  async remove(ids: string[]) {
    this.entries = this.entries.filter((e) => !ids.includes(e.entryId));
  }
  async count() {
    return this.entries.length;
  }
  async get(key: string) {
    return this.meta.get(key);
  }
  async set(key: string, value: unknown) {
    this.meta.set(key, value);
  }
  async delete(key: string) {
    this.meta.delete(key);
  }
}

export type Handler = (path: string, body: unknown, timeoutMs: number) => Answer | Promise<Answer>;

export const AK = 'ab'.repeat(32);

/** The collector's happy answers: a token, a config, then every send accepted. */
export const ok = (path: string): Answer => {
  if (path.endsWith(TRACKING_PATHS.accessToken))
    return { code: 0, msg: 'ok', data: { token: 'tok-1', produceId: 'p1', sign: 's1', configVersion: '1' } };
  if (path.endsWith(TRACKING_PATHS.trackConfig))
    return { code: 0, msg: 'ok', data: { ak: AK, batchSize: 20, bufferS: 20 } };
  return { code: 0, msg: 'ok' };
};

/** The calls the scripted collector saw, how it answers, and the shared queue; reset before each test. */
export const rig = {} as {
  calls: Array<{ path: string; body: unknown; timeoutMs: number }>;
  handler: Handler;
  queue: MemoryQueue;
};
let seq = 0;

/** Fake timers and a fresh rig around every test of the calling file. */
export function useEngineRig(): void {
  beforeEach(() => {
    vi.useFakeTimers();
    rig.calls = [];
    rig.handler = ok;
    rig.queue = new MemoryQueue();
  });
  afterEach(() => vi.useRealTimers());
}

export function transport(): Transport {
  return {
    post: async <T>(url: string, body: unknown, timeoutMs: number) => {
      const path = new URL(url, 'http://x').pathname;
      rig.calls.push({ path, body, timeoutMs });
      return (await rig.handler(path, body, timeoutMs)) as Answer<T>;
    },
  };
}

export function makeEngine(init: Partial<Parameters<TrackingEngine['init']>[0]> = {}, notify?: (n: unknown) => void) {
  const { queue } = rig;
  const engine = new TrackingEngine({
    transport: transport(),
    queue,
    cache: queue,
    appInfo: { appVersion: '1', deviceId: 'd', platform: 'pc-web', platformVersion: 'x' },
    notify,
  });
  engine.init({ appKey: 'k', ...init });
  return engine;
}

/** An engine that is the leader tab, with `count` entries enqueued. */
export async function leaderWith(count: number, init: Parameters<typeof makeEngine>[0] = {}) {
  const engine = makeEngine(init);
  await engine.setLeader(true);
  await engine.enqueue(entries(count));
  return engine;
}

/** `n` entries of one tab, numbered on from the last ones made (ids unique within a test file). */
export function entries(n: number, tab = 't1'): QueuedEntry[] {
  return Array.from({ length: n }, () => {
    seq++;
    return {
      entryId: `e${seq}`,
      coldStartId: 'c',
      seqId: seq,
      uid: '',
      time: seq,
      oid: 'a_b_c',
      action: 1,
      foid: '',
      ffid: '',
      logmap: {},
      tab,
    };
  });
}

export const sends = () => rig.calls.filter((c) => c.path === TRACKING_PATHS.trackInfo);
export const paths = () => rig.calls.map((c) => c.path);
