// The shape of one versioned schema migration and the SQL engines it is written for, shared by the migration files, the
// runner and connect.ts.
import type { Kysely } from 'kysely';

/**
 * The SQL engines the server runs on: connect.ts opens them, and a migration writes its DDL for the one it is given.
 */
export type Engine = 'sqlite' | 'postgres';

export interface Migration {
  /** 1, 2, 3…: contiguous, in the order listed in ./index.ts; the database records the highest applied. */
  version: number;
  /** Recorded alongside the version, e.g. '001_initial'. */
  name: string;
  /**
   * Runs inside the runner's transaction, so it must not open its own. Typed against no schema because a
   * migration sees the tables as they were at its version, not as schema.ts describes them today.
   */
  up(db: Kysely<unknown>, engine: Engine): Promise<void>;
}
