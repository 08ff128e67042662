// The tracking CLI's command line, parsed strictly (node:util parseArgs): a mistyped option is an error, never ignored.
import { parseArgs } from 'node:util';

export const TRACKING_USAGE = `Usage:
  npm run tracking:export [-- --since <epoch ms>] [--app-key <key>] [--table events|messages|monitor]
  npm run tracking:keys -- list | add <appKey> [label] | revoke <appKey>
  npm run tracking:prune    (one retention pass now; the server runs one every hour)
The database is the server's (DATABASE_URL, or DATA_DIR/app.db).`;

const TABLES = ['events', 'messages', 'monitor'] as const;
/** App keys are stored as given: no surrounding spaces, at most this long. */
const MAX_APP_KEY_LENGTH = 256;

export type TrackingCommand =
  | { command: 'export'; since: number; appKey?: string; table: (typeof TABLES)[number] }
  | { command: 'keys'; action: 'list' }
  | { command: 'keys'; action: 'add' | 'revoke'; key: string; label?: string }
  | { command: 'prune' };

/** A command line the CLI cannot run: printed with the usage, exit code 2. */
export class TrackingUsageError extends Error {
  override name = 'TrackingUsageError';
}

/** parseArgs() with its complaint (unknown option, missing value, stray argument) turned into a TrackingUsageError. */
function strict<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new TrackingUsageError(error instanceof Error ? error.message : String(error));
  }
}

/** The command `argv` (the arguments after the script) asks for; throws TrackingUsageError when it is not one. */
export function parseTrackingArgs(argv: readonly string[]): TrackingCommand {
  const [command, ...args] = argv;
  if (command === 'export') {
    const { values } = strict(() =>
      parseArgs({
        args,
        strict: true,
        allowPositionals: false,
        options: { since: { type: 'string' }, 'app-key': { type: 'string' }, table: { type: 'string' } },
      }),
    );
    const since = values.since === undefined ? 0 : Number(values.since);
    if (values.since !== undefined && (values.since.trim() === '' || !Number.isFinite(since))) {
      throw new TrackingUsageError(`--since takes a time in epoch milliseconds, not '${values.since}'`);
    }
    const table = (values.table ?? 'events') as (typeof TABLES)[number];
    if (!TABLES.includes(table)) throw new TrackingUsageError(`--table is one of ${TABLES.join(', ')}, not '${table}'`);
    return { command, since, appKey: values['app-key'], table };
  }
  if (command === 'keys') {
    const { positionals } = strict(() => parseArgs({ args, strict: true, allowPositionals: true, options: {} }));
    const [action, key, label] = positionals;
    if (action !== 'list' && action !== 'add' && action !== 'revoke') {
      throw new TrackingUsageError(`keys takes list, add or revoke${action ? `, not '${action}'` : ''}`);
    }
    // list takes nothing more, revoke a key, add a key and a label.
    const most = { list: 1, revoke: 2, add: 3 }[action];
    if (positionals.length > most)
      throw new TrackingUsageError(`unexpected argument '${positionals[most]}' after ${action}`);
    if (action === 'list') return { command, action };
    if (!key || key.trim() !== key || key.length > MAX_APP_KEY_LENGTH) {
      throw new TrackingUsageError(
        `${action} needs an app key of 1 to ${MAX_APP_KEY_LENGTH} characters without surrounding spaces`,
      );
    }
    return { command, action, key, label };
  }
  if (command === 'prune') {
    strict(() => parseArgs({ args, strict: true, allowPositionals: false, options: {} }));
    return { command };
  }
  throw new TrackingUsageError(command ? `unknown command '${command}'` : 'a command is needed');
}
