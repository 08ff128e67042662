// Cluster-wide engine slots for QUEUE=pg-boss: leased rows (engine, slot) with expiry, so a killed worker's slots free
// when their lease runs out.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db';
import type { Logger } from '../log';
import { TASK_QUEUE } from '../../src/lib/product-rules';

export interface EngineSlots {
  /** One of `cap` slots of an engine across every process on the database; resolves with a release function. */
  acquire(name: string, cap: number, signal: AbortSignal): Promise<() => void>;
  close(): Promise<void>;
}

export interface LeasedEngineSlotsOptions {
  /** The process's pool (PostgreSQL): every take, renewal and release is one statement, so no connection is held. */
  db: Kysely<Schema>;
  log?: Logger;
  leaseS?: number;
  renewS?: number;
  pollMs?: number;
}

const abortError = (signal: AbortSignal) => (signal.reason instanceof Error ? signal.reason : new Error('aborted'));
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
// The database's clock, so workers on hosts whose clocks disagree still agree on when a lease ran out.
const NOW_MS = sql<number>`(extract(epoch from statement_timestamp()) * 1000)::bigint`;

/** Slots of one process (its holder id); PostgreSQL only, like the pg-boss queue that uses them. */
export function leasedEngineSlots(o: LeasedEngineSlotsOptions): EngineSlots {
  const leaseMs = (o.leaseS ?? TASK_QUEUE.engineSlotLeaseS) * 1000;
  const renewMs = (o.renewS ?? TASK_QUEUE.engineSlotRenewS) * 1000;
  const pollMs = o.pollMs ?? TASK_QUEUE.engineSlotPollMs;
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  /** Slots this process holds, as engine and slot index; only these are renewed. */
  const held = new Map<string, { engine: string; slot: number }>();
  let renewTimer: NodeJS.Timeout | undefined;

  /**
   * Pushes every held lease forward in one statement; a slot another holder took meanwhile (our lease ran out) is
   * reported.
   */
  async function renew(): Promise<void> {
    const mine = [...held.values()];
    if (mine.length === 0) return;
    const { rows } = await sql<{ engine: string; slot: number }>`
      update engine_slots set expires_at = ${NOW_MS} + ${leaseMs}
      where holder = ${holder}
        and (engine, slot) in (select * from unnest(${mine.map((s) => s.engine)}::text[], ${mine.map((s) => s.slot)}::int[]))
      returning engine, slot`.execute(o.db);
    if (rows.length < mine.length)
      o.log?.warn('engine slot leases ran out before they were renewed', { lost: mine.length - rows.length });
  }

  function keepRenewing() {
    if (renewTimer || held.size === 0) return;
    renewTimer = setInterval(() => {
      if (held.size === 0) {
        clearInterval(renewTimer);
        renewTimer = undefined;
        return;
      }
      // A renewal the database refused is tried again next time; the lease is three renewals long.
      renew().catch((error: unknown) => o.log?.warn('engine slot renewal failed', { error: message(error) }));
    }, renewMs);
    renewTimer.unref();
  }

  /**
   * One statement takes a free slot of 0..cap-1: one with no row, or whose lease expired (updated in place). Two
   * takers of the same slot meet on the primary key: the second's update finds an unexpired lease and takes nothing.
   */
  async function tryOnce(engine: string, cap: number): Promise<(() => void) | null> {
    const { rows } = await sql<{ slot: number }>`
      insert into engine_slots (engine, slot, holder, expires_at)
      select ${engine}, s, ${holder}, ${NOW_MS} + ${leaseMs}
      from generate_series(0, ${cap}::int - 1) as s
      where not exists (select 1 from engine_slots e where e.engine = ${engine} and e.slot = s and e.expires_at > ${NOW_MS})
      order by random()
      limit 1
      on conflict (engine, slot) do update set holder = excluded.holder, expires_at = excluded.expires_at
        where engine_slots.expires_at <= excluded.expires_at - ${leaseMs}
      returning slot`.execute(o.db);
    const slot = rows[0]?.slot;
    if (slot === undefined) return null;
    const key = `${engine}\u0000${slot}`;
    held.set(key, { engine, slot });
    keepRenewing();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      held.delete(key);
      // A release that fails leaves the row to expire: it is no longer renewed.
      sql`delete from engine_slots where engine = ${engine} and slot = ${slot} and holder = ${holder}`
        .execute(o.db)
        .catch((error: unknown) =>
          o.log?.warn('engine slot release failed; it frees when its lease runs out', {
            engine,
            error: message(error),
          }),
        );
    };
  }

  return {
    async acquire(name, cap, signal) {
      for (;;) {
        if (signal.aborted) throw abortError(signal);
        const release = await tryOnce(name, Math.max(1, cap));
        if (release) {
          if (!signal.aborted) return release;
          release();
          throw abortError(signal);
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, pollMs);
          function done() {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            resolve();
          }
          signal.addEventListener('abort', done, { once: true });
        });
      }
    },
    async close() {
      clearInterval(renewTimer);
      renewTimer = undefined;
      if (held.size === 0) return;
      held.clear();
      await sql`delete from engine_slots where holder = ${holder}`.execute(o.db).catch(() => undefined);
    },
  };
}
