// The shape of one versioned schema migration, shared by the migration files and the runner.
import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

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
