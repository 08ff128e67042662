// A second server for specs that need this product as an operator first runs it: no Stripe keys, no OAuth clients and
// runs with no AI model free (the defaults), beside the run's main server, which has payments and sign-in providers
// configured.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface PlainServer {
  url: string;
  close(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '../../..');
/** Settings the main server has that this one must not inherit from the worker's environment. */
const UNSET = [
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'GOOGLE_CLIENT_ID',
  'GOOGLE_CLIENT_SECRET',
  'GITHUB_CLIENT_ID',
  'GITHUB_CLIENT_SECRET',
];

/**
 * Starts the built server (dist-server/main.mjs, which the run's web server built) on `port` and waits for /healthz.
 */
export async function startPlainServer(port: number): Promise<PlainServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dreamapi-plain-'));
  const url = `http://localhost:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PUBLIC_URL: url,
    NO_MODEL_PRICE: 'free',
  };
  for (const name of UNSET) env[name] = '';
  env.SITE_DIR = process.env.SITE_DIR || path.join(ROOT, 'dist');
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'dist-server/main.mjs')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (let tries = 0; ; tries += 1) {
      if (child.exitCode !== null)
        throw new Error(`the plain server exited with ${child.exitCode} (is port ${port} taken?)`);
      const up = await fetch(`${url}/healthz`).then(
        (res) => res.ok,
        () => false,
      );
      // Ours only if it is still running: another process on the port would answer too.
      if (up && child.exitCode === null) break;
      if (tries > 300) throw new Error('the plain server did not answer /healthz in 60 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
  return {
    url,
    async close() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
