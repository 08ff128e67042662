// Collector batches reaching several instances on one PostgreSQL database at the same moment: every entry id is stored
// once (SPEC.md §7).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TRACKING_LIMITS, TRACKING_PATHS } from '../../src/lib/product-rules';
import type { TrackEntry } from '../../src/lib/tracking/types';
import { trackingStore } from '../tracking/store';
import { appInstances, postgresSkipReason, postJson, type Instance, type Instances } from '../test-support/instances';
import { batch, DEVICE_1, entry, KEY } from './tracking.fixtures';

const skipReason = await postgresSkipReason();
if (skipReason) console.warn(`tracking across instances skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)(
  `tracking batches across two instances on PostgreSQL (skipped when: ${skipReason ?? 'never'})`,
  () => {
    let instances: Instances;
    let a: Instance;
    let b: Instance;
    beforeEach(async () => {
      instances = await appInstances(2, {
        TRACKING_APP_KEYS: KEY,
        TRACKING_SECRET: 'tracking-instances-secret-tracking-0123',
      });
      [a, b] = instances.list as [Instance, Instance];
    });
    afterEach(() => instances.close());

    /** A token issued by instance A; B must accept it too, since both share the secrets. */
    async function session() {
      const token = await postJson(a, TRACKING_PATHS.accessToken, DEVICE_1);
      const data = token.body.data as { token: string; produceId: string; sign: string };
      const config = await postJson(b, TRACKING_PATHS.trackConfig, { token: data.token, sign: data.sign });
      expect(config.body.code).toBe(0);
      return { ...data, ak: (config.body.data as { ak: string }).ak };
    }

    const send = (instance: Instance, body: unknown) =>
      postJson<{ code: number; data: { stored: number; duplicates: number } }>(
        instance,
        TRACKING_PATHS.trackInfo,
        body,
      );

    async function storedIds(): Promise<string[]> {
      const rows = await a.database.db.selectFrom('tracking_events').select('entry_id').orderBy('entry_id').execute();
      return rows.map((r) => r.entry_id);
    }

    function expectStoredOnce(
      answers: { status: number; body: { code: number; data: { stored: number; duplicates: number } } }[],
      entries: TrackEntry[],
    ) {
      expect(answers.map((r) => [r.status, r.body.code])).toEqual(answers.map(() => [200, 0]));
      // Whoever won each row, the copies together stored every entry exactly once.
      expect(answers.reduce((n, r) => n + r.body.data.stored, 0)).toBe(entries.length);
      expect(answers.reduce((n, r) => n + r.body.data.duplicates, 0)).toBe(entries.length * (answers.length - 1));
    }

    it('the same sealed batch reaching both instances at once is stored once per entry id', async () => {
      const s = await session();
      const entries = Array.from({ length: 20 }, () => entry());
      const body = batch(s, entries);
      const answers = await Promise.all([send(a, body), send(b, body)]);
      expectStoredOnce(answers, entries);
      expect(await storedIds()).toEqual(entries.map((e) => e.entryId).sort());
    });

    it('five copies spread over the two instances store each entry once', async () => {
      const s = await session();
      const entries = Array.from({ length: 20 }, () => entry());
      const body = batch(s, entries);
      const answers = await Promise.all([a, b, a, b, a].map((instance) => send(instance, body)));
      expectStoredOnce(answers, entries);
      expect(await storedIds()).toEqual(entries.map((e) => e.entryId).sort());
    });

    it('overlapping batches with the entries in other orders, at once on both instances, store each entry once', async () => {
      // A resend may hold the same entries in another order (a beacon copy after a retry): rows taken in opposite
      // orders by two transactions must not deadlock each other into an error.
      const s = await session();
      const entries = Array.from({ length: TRACKING_LIMITS.batchMaxEntries }, () => entry());
      const reversed = [...entries].reverse();
      const rotated = [...entries.slice(50), ...entries.slice(0, 50)];
      const answers = await Promise.all([
        send(a, batch(s, entries)),
        send(b, batch(s, reversed)),
        send(a, batch(s, rotated)),
        send(b, batch(s, reversed)),
      ]);
      expectStoredOnce(answers, entries);
      expect(await storedIds()).toEqual(entries.map((e) => e.entryId).sort());
    });

    it('the stores of both instances writing the same entries in opposite orders, round after round, never fail', async () => {
      // The route's decrypting spreads the copies out in time; straight at the store the inserts overlap nearly every
      // round, which is where rows taken in opposite orders by two transactions used to deadlock.
      const stores = [trackingStore(a.database, [KEY]), trackingStore(b.database, [KEY])] as const;
      const meta = { appKey: KEY, produceId: 'p', deviceId: 'dev-1', queueId: 'q', receivedAt: Date.now() };
      for (let round = 0; round < 10; round++) {
        const entries = Array.from({ length: TRACKING_LIMITS.batchMaxEntries }, () => entry());
        const reversed = [...entries].reverse();
        const results = await Promise.all([
          stores[0].storeBatch(entries, meta),
          stores[1].storeBatch(reversed, meta),
          stores[0].storeBatch(reversed, meta),
          stores[1].storeBatch(entries, meta),
        ]);
        expect(results.reduce((n, r) => n + r.stored, 0)).toBe(entries.length);
      }
      expect(await storedIds()).toHaveLength(10 * TRACKING_LIMITS.batchMaxEntries);
    });
  },
);
