// Cluster-wide engine slots for QUEUE=pg-boss: a semaphore of PostgreSQL session advisory locks, so a killed worker's slots free with its connection.
import pg from 'pg';
import { TASK_QUEUE } from '../../src/lib/spec';

export interface EngineSlots {
  /** One of `cap` slots of an engine across every process on the database; resolves with a release function. */
  acquire(name: string, cap: number, signal: AbortSignal): Promise<() => void>;
  close(): Promise<void>;
}

/** A stable 25-bit hash of an engine name, so hash * 64 + slot fits the int4 second key. */
function engineHash(name: string): number {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(name)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h & 0x1ffffff;
}

const abortError = (signal: AbortSignal) => (signal.reason instanceof Error ? signal.reason : new Error('aborted'));

/** `connections` bounds this process's held slots plus one waiter's probe: the worker count is enough. */
export function advisoryEngineSlots(o: { connectionString: string; connections: number; pollMs?: number }): EngineSlots {
  // Made on first use and again after close(), so a task system that stops and starts again still has one.
  let current: pg.Pool | undefined;
  const pool = () => {
    if (current) return current;
    current = new pg.Pool({ connectionString: o.connectionString, max: Math.max(1, o.connections) });
    // An idle client whose server went away: the pool drops it; nothing else to do.
    current.on('error', () => undefined);
    return current;
  };
  const held = new Set<pg.PoolClient>();
  const pollMs = o.pollMs ?? TASK_QUEUE.engineSlotPollMs;

  /** Tries each slot once on one connection; keeps the connection when a lock was taken. */
  async function tryOnce(name: string, cap: number): Promise<(() => void) | null> {
    const client = await pool().connect();
    const base = engineHash(name) * TASK_QUEUE.engineSlotsMax;
    try {
      for (let slot = 0; slot < Math.min(cap, TASK_QUEUE.engineSlotsMax); slot++) {
        const key = base + slot;
        const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) as ok', [TASK_QUEUE.engineSlotLockClass, key]);
        if (!rows[0]?.ok) continue;
        held.add(client);
        // A held connection that breaks has lost its lock with it: it is destroyed on release, not reused.
        let broken = false;
        const onError = () => (broken = true);
        client.on('error', onError);
        let done = false;
        return () => {
          if (done) return;
          done = true;
          held.delete(client);
          const finish = (error?: Error) => {
            client.off('error', onError);
            client.release(error ?? broken);
          };
          if (broken) return finish();
          client.query('select pg_advisory_unlock($1, $2)', [TASK_QUEUE.engineSlotLockClass, key]).then(
            () => finish(),
            (error: unknown) => finish(error instanceof Error ? error : new Error(String(error))),
          );
        };
      }
    } catch (error) {
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    client.release();
    return null;
  }

  return {
    async acquire(name, cap, signal) {
      for (;;) {
        if (signal.aborted) throw abortError(signal);
        const release = await tryOnce(name, cap);
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
      for (const client of held) client.release(true);
      held.clear();
      const ending = current;
      current = undefined;
      await ending?.end();
    },
  };
}
