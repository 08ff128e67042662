// Runs the operator CLI against the e2e server's database (DATA_DIR shared through the Playwright config).
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');

export function admin(...args: string[]): string {
  return execFileSync(
    process.execPath,
    [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'server/admin/cli.ts', ...args],
    {
      cwd: root,
      env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    },
  );
}
