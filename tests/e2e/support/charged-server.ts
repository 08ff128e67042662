// e2e: a spec's own app server that charges runs their full price (the shared server's no-model runs are free), on
// the same site and mail server, with the operator CLI on its database.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from '@playwright/test';
import { startServer, type ServerProcess } from '../../../server/test-support/server-process';
import { accountsServerEnv, E2E_APP_PORT } from './accounts-env';

const root = path.resolve(import.meta.dirname, '../../..');

export interface ChargedServer {
  base: string;
  /** Grants `credits` to the account of `email` with the operator CLI. */
  grant(email: string, credits: number): void;
}

/** Starts before the spec's tests on E2E_APP_PORT + `portOffset` (with `env` added) and stops after them. */
export function useChargedServer(name: string, portOffset: number, env: Record<string, string> = {}): ChargedServer {
  const port = E2E_APP_PORT + portOffset;
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `${name}-e2e-`));
  let server: ServerProcess | undefined;
  test.beforeAll(async () => {
    // A busy machine may take a while to start the server.
    test.setTimeout(120_000);
    server = await startServer({
      ...accountsServerEnv(E2E_APP_PORT),
      PORT: String(port),
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      SITE_DIR: process.env.SITE_DIR || path.join(root, 'dist'),
      NO_MODEL_PRICE: 'full',
      SIGNUP_CREDITS: '0',
      ...env,
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    base,
    grant(email, credits) {
      execFileSync(
        process.execPath,
        [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'server/admin/cli.ts', 'grant', email, String(credits)],
        { cwd: root, env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' } },
      );
    },
  };
}
