// The durable queue every tab shares: entries and the token/config cache in one IndexedDB database (SPEC.md §4).
import { TRACKING_BROWSER, TRACKING_LIMITS } from '../product-rules';
import type { EntryQueue } from './engine';
import type { CredentialsCache } from './credentials';
import { randomHex } from './entry';
import type { QueuedEntry } from './types';

const ENTRIES = 'entries';
const META = 'meta';

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

export function openQueueDatabase(
  factory: IDBFactory = indexedDB,
  name: string = TRACKING_BROWSER.dbName,
): Promise<IDBDatabase> {
  const request = factory.open(name, 1);
  request.onupgradeneeded = () => {
    const db = request.result;
    // entryId is the key, so a second add of the same entry (a stash drained twice) is a harmless overwrite.
    const entries = db.createObjectStore(ENTRIES, { keyPath: 'entryId' });
    entries.createIndex('time', 'time');
    entries.createIndex('tab', 'tab');
    db.createObjectStore(META);
  };
  return done(request);
}

export class IdbQueue implements EntryQueue, CredentialsCache {
  constructor(private readonly db: IDBDatabase) {}

  async add(entries: QueuedEntry[]): Promise<void> {
    const tx = this.db.transaction(ENTRIES, 'readwrite');
    const store = tx.objectStore(ENTRIES);
    for (const entry of entries) store.put(entry);
    const total = await done(store.count());
    // A queue that grew past the store cap (e.g. offline for days) loses its oldest entries, never the newest.
    if (total > TRACKING_LIMITS.storeMaxEntries) {
      const oldest = await done(store.index('time').getAllKeys(null, total - TRACKING_LIMITS.storeMaxEntries));
      for (const key of oldest) store.delete(key);
    }
    await committed(tx);
  }

  async peek(limit: number): Promise<QueuedEntry[]> {
    const tx = this.db.transaction(ENTRIES, 'readonly');
    return done(tx.objectStore(ENTRIES).index('time').getAll(null, limit) as IDBRequest<QueuedEntry[]>);
  }

  async forTab(tab: string, limit: number): Promise<QueuedEntry[]> {
    const tx = this.db.transaction(ENTRIES, 'readonly');
    return done(tx.objectStore(ENTRIES).index('tab').getAll(tab, limit) as IDBRequest<QueuedEntry[]>);
  }

  async remove(ids: string[]): Promise<void> {
    const tx = this.db.transaction(ENTRIES, 'readwrite');
    const store = tx.objectStore(ENTRIES);
    for (const id of ids) store.delete(id);
    await committed(tx);
  }

  async count(): Promise<number> {
    return done(this.db.transaction(ENTRIES, 'readonly').objectStore(ENTRIES).count());
  }

  /**
   * The persistent device id (SPEC.md §3 app info), created on first use. One readwrite transaction reads and, if
   * missing, writes it, and IndexedDB runs such transactions one at a time, so two tabs starting together agree on it.
   */
  async deviceId(): Promise<string> {
    const tx = this.db.transaction(META, 'readwrite');
    const store = tx.objectStore(META);
    let id = await done(store.get(TRACKING_BROWSER.deviceIdKey));
    if (typeof id !== 'string' || id === '') {
      id = randomHex(16);
      store.put(id, TRACKING_BROWSER.deviceIdKey);
    }
    await committed(tx);
    return id as string;
  }

  async get(key: string): Promise<unknown> {
    return done(this.db.transaction(META, 'readonly').objectStore(META).get(key));
  }

  async set(key: string, value: unknown): Promise<void> {
    const tx = this.db.transaction(META, 'readwrite');
    tx.objectStore(META).put(value, key);
    await committed(tx);
  }

  async delete(key: string): Promise<void> {
    const tx = this.db.transaction(META, 'readwrite');
    tx.objectStore(META).delete(key);
    await committed(tx);
  }
}
