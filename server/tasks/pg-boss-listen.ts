// Routes pg-boss's own LISTEN (its wake-up for new jobs) to a session connection when its pool goes through a
// transaction pooler.
import type { PgBoss } from 'pg-boss';

/** What this uses of pg-boss's built-in database: listen() opens a pg.Client from `config` on every (re)connect. */
interface BuiltInDatabase {
  config: Record<string, unknown>;
  listen: (...args: unknown[]) => Promise<unknown>;
}

/**
 * pg-boss opens its LISTEN client from the same settings as its pool. Behind PgBouncer in transaction mode that
 * session is not kept, so notifications are lost; this gives listen() a view of pg-boss's database whose settings
 * name `url` instead, and keeps everything else (its heartbeat, reconnects) as pg-boss wrote it.
 * server/db/pgbouncer.test.ts checks the listener reaches the database directly.
 */
export function listenThrough(boss: PgBoss, url: string): void {
  const db = boss.getDb() as unknown as Partial<BuiltInDatabase>;
  const listen = db.listen;
  if (typeof listen !== 'function' || typeof db.config !== 'object')
    throw new Error('pg-boss has no built-in listen() to route to DATABASE_DIRECT_URL');
  const direct: unknown = Object.create(db, { config: { value: { ...db.config, connectionString: url } } });
  db.listen = (...args: unknown[]) => listen.apply(direct, args);
}
