// Hot-path queries built and compiled once per database: a call only binds its values to the SQL compiled for that
// database's dialect.
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Schema } from './schema.ts';

/** Stands in for the call's nth value while the query is built and compiled. */
class Slot {
  // A plain field, not a parameter property: the database area also runs under Node's own type stripping.
  readonly index: number;
  constructor(index: number) {
    this.index = index;
  }
}

export interface PreparedQuery<A extends unknown[], R> {
  /** Every row. */
  all(db: Kysely<Schema>, ...values: A): Promise<R[]>;
  /** The first row, or undefined when there is none. */
  first(db: Kysely<Schema>, ...values: A): Promise<R | undefined>;
}

/**
 * Kysely builds a query's node tree and compiles it to SQL on every call, which costs more than running a simple
 * indexed query. `build` runs once per database (so once per dialect, SQLite or PostgreSQL) with stand-ins for its
 * values; each call then runs the compiled SQL with its own values in their places. `build` may use its values only
 * where Kysely makes them parameters (comparisons, limits, inserted values), never in lists of varying length:
 * the first compile checks that each value became exactly one parameter.
 */
export function preparedQuery<A extends unknown[], R>(
  build: (db: Kysely<Schema>, ...values: A) => Compilable<R>,
): PreparedQuery<A, R> {
  const compiled = new WeakMap<Kysely<Schema>, CompiledQuery<R>>();
  const arity = build.length - 1;

  function compile(db: Kysely<Schema>): CompiledQuery<R> {
    let query = compiled.get(db);
    if (!query) {
      const slots = Array.from({ length: arity }, (_, index) => new Slot(index));
      query = build(db, ...(slots as A)).compile();
      const used = new Set(query.parameters.filter((p): p is Slot => p instanceof Slot).map((slot) => slot.index));
      if (used.size !== arity)
        throw new Error(
          `preparedQuery: each of the ${arity} values must become a parameter of the SQL; ${used.size} did in ${query.sql}`,
        );
      compiled.set(db, query);
    }
    return query;
  }

  async function all(db: Kysely<Schema>, ...values: A): Promise<R[]> {
    const query = compile(db);
    const parameters = query.parameters.map((p) => (p instanceof Slot ? values[p.index] : p));
    return (await db.executeQuery<R>({ ...query, parameters })).rows;
  }

  return { all, first: async (db, ...values) => (await all(db, ...values))[0] };
}
