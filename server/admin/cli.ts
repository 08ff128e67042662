// `npm run admin -- <command>`: the operator CLI, run against the database the server's configuration names.
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { recordAudit } from '../audit';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '../db';
import { SECRET_FILE } from '../accounts/secret';
import { AUDIT } from '../../src/lib/product-rules';
import { backupSqlite, restoreSqlite, sqliteFileOf, type BackupSummary } from './backup';
import { runAdmin, USAGE, UsageError } from './commands';

const print = (line: string) => process.stdout.write(line + '\n');

/** Who runs the CLI, for the audit trail: --by, else ADMIN_ACTOR, else the login name. */
function operator(): string {
  let login = 'unknown';
  try {
    login = userInfo().username;
  } catch {
    // No passwd entry (some containers): the trail says unknown unless ADMIN_ACTOR or --by names someone.
  }
  return `operator:${process.env.ADMIN_ACTOR || login}`;
}

const described = (s: BackupSummary) =>
  `${s.file}: ${s.bytes} bytes, schema version ${s.schemaVersion}, ${s.users} users, ${s.tasks} tasks, ${s.ledgerRows} ledger rows`;

/** backup and restore work on the database file itself, before (or instead of) opening it as the server does. */
async function backupOrRestore(command: 'backup' | 'restore', args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { force: { type: 'boolean' }, by: { type: 'string' }, reason: { type: 'string' } },
  });
  const file = positionals[0];
  if (!file) throw new UsageError(`${command} needs a file name`);
  const config = loadConfig();
  const databaseFile = sqliteFileOf(config.databaseUrl);
  if (command === 'backup') {
    print(`backed up ${described(await backupSqlite(databaseFile, file, { force: values.force }))}`);
    if (!config.secretKey)
      print(
        `keep ${path.join(config.dataDir, SECRET_FILE)} with it: API keys and sign-in codes are sealed with that secret (or set SECRET_KEY)`,
      );
    return;
  }
  const restored = await restoreSqlite(file, databaseFile, { force: values.force });
  // A backup of an older release is brought up to this one's schema, and the restore goes on the record.
  const database = await openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database);
    const actor = values.by ? `operator:${values.by}` : operator();
    await recordAudit(database.db, {
      actor,
      action: AUDIT.actions.restore,
      subject: path.resolve(file),
      reason: values.reason ?? 'no reason given',
      detail: { users: restored.users, tasks: restored.tasks, ledgerRows: restored.ledgerRows },
    });
  } finally {
    await database.close();
  }
  print(`restored ${described(restored)}`);
  if (!config.secretKey && !existsSync(path.join(config.dataDir, SECRET_FILE))) {
    print(
      `no server secret here: copy secret.key from the server the backup came from into ${config.dataDir} (or ` +
        `set SECRET_KEY) before starting, or API keys will not verify`,
    );
  }
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help') {
    process.stdout.write(USAGE);
    return;
  }
  if (argv[0] === 'backup' || argv[0] === 'restore') return backupOrRestore(argv[0], argv.slice(1));
  const config = loadConfig();
  const database = await openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database);
    await runAdmin(database.db, argv, print, { operator: operator() });
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(
    error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
      ? `${message}\n\n${USAGE}`
      : `admin failed: ${message}\n`,
  );
  process.exitCode = 1;
});
