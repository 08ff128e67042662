// Starts the real server as production runs it (built server and site, fresh data folder) on a free port for a
// benchmark, and stops it.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverCommand } from '../scripts/server-command.mjs';

const root = path.resolve(import.meta.dirname, '..');

/**
 * `startTimeoutS`: how long to wait for /healthz (a loaded machine can take longer than the default to boot the
 * server).
 */
export async function startServer(env = {}, { startTimeoutS = 20 } = {}) {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const { command, args } = await serverCommand();
  const child = spawn(command, args, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'bench-')),
      LOG_LEVEL: 'error',
      ...env,
    },
  });
  const url = `http://localhost:${port}`;
  for (let i = 0; i < startTimeoutS * 5; i++) {
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok)
      return {
        url,
        pid: child.pid,
        stop: () =>
          new Promise((resolve) => {
            child.once('exit', resolve);
            child.kill('SIGTERM');
          }),
      };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not start within ${startTimeoutS} s`);
}
