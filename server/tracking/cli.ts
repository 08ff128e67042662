// Operator CLI: `npm run tracking:export` writes events as NDJSON, `tracking:keys` registers app keys, `tracking:prune`
// runs a retention pass.
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '../db';
import { parseTrackingArgs, TRACKING_USAGE, TrackingUsageError, type TrackingCommand } from './cli-args';
import { pruneTrackingEvents } from './retention';

const PAGE = 1000;

async function main(): Promise<number> {
  let run: TrackingCommand;
  try {
    run = parseTrackingArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof TrackingUsageError)) throw error;
    // Before the database is opened: a mistyped option (--sinse) must not run an export it did not mean.
    process.stderr.write(`tracking: ${error.message}\n\n${TRACKING_USAGE}\n`);
    return 2;
  }
  const config = loadConfig();
  const database = await openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database);
    const { db } = database;
    if (run.command === 'export') {
      const { since, appKey, table } = run;
      if (table === 'events') {
        // Keyset paging in (received_at, entry_id) order: constant memory for any number of events.
        let after: { at: number; id: string } = { at: since - 1, id: '\uffff' };
        for (;;) {
          let query = db
            .selectFrom('tracking_events')
            .selectAll()
            .where((eb) =>
              eb.or([
                eb('received_at', '>', after.at),
                eb.and([eb('received_at', '=', after.at), eb('entry_id', '>', after.id)]),
              ]),
            )
            .where('received_at', '>=', since)
            .orderBy('received_at')
            .orderBy('entry_id')
            .limit(PAGE);
          if (appKey) query = query.where('app_key', '=', appKey);
          const rows = await query.execute();
          for (const row of rows)
            process.stdout.write(JSON.stringify({ ...row, logmap: JSON.parse(row.logmap) as unknown }) + '\n');
          if (rows.length < PAGE) break;
          const last = rows[rows.length - 1]!;
          after = { at: last.received_at, id: last.entry_id };
        }
      } else {
        const name = table === 'messages' ? 'tracking_messages' : 'tracking_monitor';
        let lastId = 0;
        for (;;) {
          let query = db
            .selectFrom(name)
            .selectAll()
            .where('id', '>', lastId)
            .where('received_at', '>=', since)
            .orderBy('id')
            .limit(PAGE);
          if (appKey) query = query.where('app_key', '=', appKey);
          const rows = await query.execute();
          for (const row of rows) process.stdout.write(JSON.stringify(row) + '\n');
          if (rows.length < PAGE) break;
          lastId = rows[rows.length - 1]!.id;
        }
      }
      return 0;
    }
    if (run.command === 'prune') {
      // The pass the hourly chore runs (server/tasks/chores.ts), for an operator who will not wait for it.
      const pruned = await pruneTrackingEvents(database, { retentionDays: config.tracking.retentionDays });
      const { removed, partitionsDropped, partitionsMade } = pruned;
      process.stdout.write(
        `older than ${config.tracking.retentionDays} days: ${removed} events deleted, ${partitionsDropped} days dropped; ${partitionsMade} made ahead\n`,
      );
      return 0;
    }
    if (run.action === 'list') {
      const rows = await db.selectFrom('tracking_app_keys').selectAll().orderBy('created_at').execute();
      for (const k of config.tracking.appKeys) process.stdout.write(`${k}\t(configuration: TRACKING_APP_KEYS)\n`);
      for (const r of rows) process.stdout.write(`${r.app_key}\t${r.revoked_at ? 'revoked' : 'active'}\t${r.label}\n`);
      return 0;
    }
    const { action, key, label } = run;
    if (action === 'add') {
      await db
        .insertInto('tracking_app_keys')
        .values({ app_key: key, label: label ?? '', created_at: Date.now(), revoked_at: null })
        .onConflict((oc) => oc.column('app_key').doUpdateSet({ revoked_at: null }))
        .execute();
    } else {
      await db.updateTable('tracking_app_keys').set({ revoked_at: Date.now() }).where('app_key', '=', key).execute();
    }
    process.stdout.write(`${action === 'add' ? 'registered' : 'revoked'} ${key}\n`);
    return 0;
  } finally {
    await database.close();
  }
}

// exitCode, never process.exit(): exit() drops stdout still queued for a pipe, which cut exports short mid-stream
// (a reader such as `execFileSync` or `| wc -l` saw only the first few hundred rows of a larger export).
main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`tracking CLI failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
