// `npm run admin -- <command>`: the operator CLI, run against the database the server's configuration names.
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '../db';
import { runAdmin, USAGE, UsageError } from './commands';

async function main() {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help') {
    process.stdout.write(USAGE);
    return;
  }
  const config = loadConfig();
  const database = await openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database);
    await runAdmin(database.db, argv, (line) => process.stdout.write(line + '\n'));
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? `${message}\n\n${USAGE}` : `admin failed: ${message}\n`);
  process.exitCode = 1;
});
