// Test-only: one more migration after the real ones that holds the migration lock for a while, so two concurrent runs
// overlap.
import type { Migration } from '../migrations/index.ts';
import { migrations } from '../migrations/index.ts';

export const slowMigration: Migration = {
  version: migrations.length + 1,
  name: 'slow',
  async up(db) {
    await db.schema.createTable('slow_table').addColumn('id', 'integer').execute();
    await new Promise((done) => setTimeout(done, 300));
  },
};

export const migrationsWithSlowOne: readonly Migration[] = [...migrations, slowMigration];
