// Public surface of the database area: other areas import from here only (DESIGN.md "Layout").
export { openDatabase } from './connect.ts';
export type { AppDatabase, OpenDatabaseOptions } from './connect.ts';
export { migrateToLatest, SchemaTooNewError } from './migrate.ts';
export type { MigrationResult } from './migrate.ts';
export { migrations } from './migrations/index.ts';
export { pageOf } from './paging.ts';
export { preparedQuery } from './prepared.ts';
export { isDatabaseUnavailable } from './unavailable.ts';
export type { PreparedQuery } from './prepared.ts';
export type { Engine, Migration } from './migrations/index.ts';
export type * from './schema.ts';
