// The tracking CLI's command line: options are parsed strictly, so a typo is refused (exit 2) instead of widening an
// export.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTrackingArgs, TrackingUsageError } from './cli-args';

const refused = (argv: string[]) => {
  try {
    parseTrackingArgs(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(TrackingUsageError);
    return (error as Error).message;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
};

describe('parseTrackingArgs', () => {
  it('reads export options in both spellings, with defaults', () => {
    expect(parseTrackingArgs(['export'])).toEqual({ command: 'export', since: 0, table: 'events' });
    expect(parseTrackingArgs(['export', '--since', '1700000000000', '--app-key=web', '--table', 'monitor'])).toEqual({
      command: 'export',
      since: 1_700_000_000_000,
      appKey: 'web',
      table: 'monitor',
    });
  });

  it('refuses an unknown option, a missing value, a stray argument and bad values, naming them', () => {
    expect(refused(['export', '--sinse', '5'])).toContain("'--sinse'");
    expect(refused(['export', '--since'])).toContain('--since');
    expect(refused(['export', 'events'])).toContain("'events'");
    expect(refused(['export', '--since', 'yesterday'])).toContain(
      "--since takes a time in epoch milliseconds, not 'yesterday'",
    );
    expect(refused(['export', '--table', 'users'])).toContain(
      "--table is one of events, messages, monitor, not 'users'",
    );
  });

  it('reads keys actions and refuses what they do not take', () => {
    expect(parseTrackingArgs(['keys', 'list'])).toEqual({ command: 'keys', action: 'list' });
    expect(parseTrackingArgs(['keys', 'add', 'web', 'Web site'])).toEqual({
      command: 'keys',
      action: 'add',
      key: 'web',
      label: 'Web site',
    });
    expect(parseTrackingArgs(['keys', 'revoke', 'web'])).toEqual({
      command: 'keys',
      action: 'revoke',
      key: 'web',
      label: undefined,
    });
    expect(refused(['keys', 'add', 'web', '--force'])).toContain("'--force'");
    expect(refused(['keys', 'revoke', 'web', 'extra'])).toContain("unexpected argument 'extra'");
    expect(refused(['keys', 'add', ' web'])).toContain('without surrounding spaces');
    expect(refused(['keys', 'remove', 'web'])).toContain("not 'remove'");
    expect(refused(['import'])).toContain("unknown command 'import'");
    expect(parseTrackingArgs(['prune'])).toEqual({ command: 'prune' });
    expect(refused(['prune', '--days', '3'])).toContain("'--days'");
    expect(refused(['prune', 'now'])).toContain("'now'");
    expect(refused([])).toContain('a command is needed');
  });
});

describe('the tracking CLI', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tracking-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('exits with 2 and says which option it does not know, before opening any database', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    // The database would be DATA_DIR/app.db: an export that ran anyway would leave it behind.
    const { DATABASE_URL: _unused, ...env } = process.env;
    const run = spawnSync(
      path.join(root, 'node_modules/.bin/tsx'),
      ['server/tracking/cli.ts', 'export', '--sinse', '1700000000000'],
      {
        cwd: root,
        env: { ...env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("Unknown option '--sinse'");
    expect(run.stderr).toContain('Usage:');
    expect(run.stdout).toBe('');
    expect(readdirSync(dataDir)).toEqual([]);
  });
});
