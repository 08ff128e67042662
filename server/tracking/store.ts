// The collector's storage: app key lookup, all-or-nothing batch inserts deduplicated by entry id, messages and
// monitoring (both capped).
import { TRACKING_MESSAGE_LIMITS, TRACKING_MONITOR_LIMITS } from '../../src/lib/product-rules';
import type { Insertable } from 'kysely';
import type { AppDatabase, Schema } from '../db';
import type { WireEntry } from './entries';
import { groupCommitter, type EventRow } from './group-commit';
import { eventRows, type BatchMeta } from './ingest';

export type { BatchMeta } from './ingest';

type CappedTable = 'tracking_messages' | 'tracking_monitor';

export interface TrackingStoreOptions {
  /** Messages kept in all; older ones are deleted as new ones arrive (TRACKING_MESSAGE_LIMITS.storedMax). */
  messagesMax?: number;
  /** Monitoring reports kept in all, likewise (TRACKING_MONITOR_LIMITS.storedMax). */
  monitorMax?: number;
}

export function trackingStore(
  database: AppDatabase,
  configuredKeys: readonly string[],
  options: TrackingStoreOptions = {},
) {
  const messagesMax = options.messagesMax ?? TRACKING_MESSAGE_LIMITS.storedMax;
  const monitorMax = options.monitorMax ?? TRACKING_MONITOR_LIMITS.storedMax;
  const { db } = database;
  const fromConfig = new Set(configuredKeys);
  const batches = groupCommitter(database);

  /**
   * Inserts a row into a capped table and deletes those older than the newest `max`: ids only grow, so that is every
   * id at or below the new one minus the cap, one range delete on the primary key, and the table never holds more
   * than the cap.
   */
  async function insertCapped<T extends CappedTable>(
    max: number,
    table: T,
    values: Insertable<Schema[T]>,
  ): Promise<void> {
    const inserted = await db.insertInto(table).values(values).returning('id').executeTakeFirstOrThrow();
    await db
      .deleteFrom<CappedTable>(table)
      .where('id', '<=', Number(inserted.id) - max)
      .execute();
  }

  return {
    /** Registered in configuration or with the CLI, and not revoked. */
    async appKeyRegistered(appKey: string): Promise<boolean> {
      if (appKey === '') return false;
      if (fromConfig.has(appKey)) return true;
      const row = await db
        .selectFrom('tracking_app_keys')
        .select('app_key')
        .where('app_key', '=', appKey)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Stores every entry of a batch at once (one statement: all or nothing); an entry id already held is skipped.
     * Batches arriving together share that statement and its commit (./group-commit). Answers how many were new.
     */
    storeBatch(entries: readonly WireEntry[], meta: BatchMeta): Promise<{ stored: number; duplicates: number }> {
      return batches.store(eventRows(entries, meta));
    },

    /** storeBatch for rows already made (./ingest checkedRows). */
    storeRows(rows: readonly EventRow[]): Promise<{ stored: number; duplicates: number }> {
      return batches.store(rows);
    },

    /** Inserts a message; the newest `messagesMax` are kept. */
    async storeMessage(row: {
      appKey: string;
      deviceId: string;
      appVersion: string;
      platform: string;
      platformVersion: string;
      message: string;
      receivedAt: number;
    }) {
      await insertCapped(messagesMax, 'tracking_messages', {
        app_key: row.appKey,
        device_id: row.deviceId,
        app_version: row.appVersion,
        platform: row.platform,
        platform_version: row.platformVersion,
        message: row.message,
        received_at: row.receivedAt,
      });
    },

    /** Inserts a monitoring report; the newest `monitorMax` are kept. */
    async storeMonitor(row: {
      appKey: string;
      deviceId: string;
      kind: string;
      name: string;
      value?: number | undefined;
      rating?: string | undefined;
      page: string;
      message?: string | undefined;
      receivedAt: number;
    }) {
      await insertCapped(monitorMax, 'tracking_monitor', {
        app_key: row.appKey,
        device_id: row.deviceId,
        kind: row.kind,
        name: row.name,
        value: row.value ?? null,
        rating: row.rating ?? null,
        page: row.page,
        message: row.message ?? null,
        received_at: row.receivedAt,
      });
    },
  };
}

export type TrackingStore = ReturnType<typeof trackingStore>;
