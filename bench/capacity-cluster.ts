// The capacity bench's cluster: the built server (as `npm start` runs it) started as ROLE=api and ROLE=worker processes
// on free ports.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverCommand } from '../scripts/server-command.mjs';
import { freePort } from '../server/test-support/free-port';

export interface Instance {
  name: string;
  url: string;
  child: ChildProcess;
  pid: number;
  /** Lines the process wrote to stderr (warnings and errors; LOG_LEVEL=warn). */
  stderrLines: () => number;
}

/**
 * Lines of each process's stderr passed on as they come; the rest are only counted (a failing run would flood the
 * output).
 */
const ECHOED_LINES = 5;

export function startCluster() {
  const instances: Instance[] = [];
  const dirs: string[] = [];
  let command: Promise<{ command: string; args: string[] }> | undefined;

  /** Starts one process of `role` (its own DATA_DIR); resolves once it prints that it is running. */
  async function start(role: 'api' | 'worker' | 'all', name: string, env: Record<string, string>): Promise<Instance> {
    // Built once (under a second), then every process runs the same bundle.
    command ??= serverCommand();
    const { command: node, args } = await command;
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const dataDir = mkdtempSync(path.join(tmpdir(), `capacity-${name}-`));
    dirs.push(dataDir);
    const child = spawn(node, args, {
      env: {
        ...process.env,
        ...env,
        ROLE: role,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: url,
        DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let lines = 0;
    // Listed at once, so a stop while it starts kills it too.
    const instance = { name, url, child, pid: child.pid!, stderrLines: () => lines };
    instances.push(instance);
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      stderr = (stderr + text).slice(-4000);
      for (const line of text.split('\n').filter(Boolean))
        if (lines++ < ECHOED_LINES) process.stderr.write(`[${name}] ${line.slice(0, 400)}\n`);
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} on ${url} did not start: ${stderr}`)), 60_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        if (!chunk.toString().includes('is running')) return;
        clearTimeout(timer);
        resolve();
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited early with ${code}: ${stderr}`));
      });
    });
    return instance;
  }

  /** SIGKILL to every process still alive; waits for them to go and removes their data directories. */
  async function stop() {
    await Promise.all(
      instances.map((i) => {
        if (i.child.exitCode !== null || i.child.signalCode !== null) return undefined;
        const gone = new Promise((resolve) => i.child.once('exit', resolve));
        i.child.kill('SIGKILL');
        return gone;
      }),
    );
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }

  return { instances, start, stop };
}
