// The collector's message and monitoring tables on SQLite and (with TEST_DATABASE_URL) PostgreSQL: never more than
// their caps, the oldest go first.
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../db';
import { databaseEngines } from '../db/test-support/engines';
import { trackingStore } from './store';

const engines = databaseEngines('tracking');

describe.each(engines)('tracking messages and monitoring on $label', (engine) => {
  it('keeps the newest messagesMax messages: each insert deletes what fell out of the window', async () => {
    const { database, dispose } = await engine.open();
    try {
      await migrateToLatest(database);
      const store = trackingStore(database, ['k'], { messagesMax: 5 });
      for (let i = 1; i <= 12; i++) {
        await store.storeMessage({
          appKey: 'k',
          deviceId: `d${i % 3}`,
          appVersion: '1',
          platform: 'pc-web',
          platformVersion: 'x',
          message: `m${i}`,
          receivedAt: i,
        });
      }
      const rows = await database.db.selectFrom('tracking_messages').select('message').orderBy('id').execute();
      expect(rows.map((r) => r.message)).toEqual(['m8', 'm9', 'm10', 'm11', 'm12']);
    } finally {
      await dispose();
    }
  });

  it('keeps the newest monitorMax monitoring reports: each insert deletes what fell out of the window', async () => {
    const { database, dispose } = await engine.open();
    try {
      await migrateToLatest(database);
      const store = trackingStore(database, ['k'], { monitorMax: 4 });
      for (let i = 1; i <= 11; i++) {
        await store.storeMonitor({
          appKey: 'k',
          deviceId: `d${i % 2}`,
          kind: 'perf',
          name: `m${i}`,
          value: i,
          page: '/',
          receivedAt: i,
        });
      }
      const rows = await database.db.selectFrom('tracking_monitor').select('name').orderBy('id').execute();
      expect(rows.map((r) => r.name)).toEqual(['m8', 'm9', 'm10', 'm11']);
    } finally {
      await dispose();
    }
  });
});
