// Real server processes of a cluster (the cluster tests' and the capacity bench's): each started with a role on a free
// port and its own data folder, awaited until it says it is running, and killed together.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../server/test-support/free-port';

export interface Instance {
  /** Names the process in errors, in its echoed lines and in its data folder. */
  name: string;
  role: 'api' | 'worker' | 'all';
  url: string;
  dataDir: string;
  child: ChildProcess;
  exited: Promise<void>;
}

export interface StartOptions {
  /** What runs the server (scripts/server-command.mjs). */
  command: { command: string; args: string[] };
  role: Instance['role'];
  name: string;
  /** The run's settings; ROLE, PORT, HOST, PUBLIC_URL and DATA_DIR are the process's own. */
  env: Record<string, string>;
  /** How long it may take to say it is running. */
  timeoutMs: number;
  /** Every process of the run: the new one is listed at once, so a kill while it starts ends it too. */
  all: Instance[];
  /** Each piece of its stderr as it comes. */
  onStderr?: (text: string) => void;
}

/** Starts one server process; resolves once it prints that it is running, rejects when it exits or times out first. */
export async function startServerProcess(o: StartOptions): Promise<Instance> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), `cluster-${o.name}-`));
  const child = spawn(o.command.command, o.command.args, {
    env: {
      ...process.env,
      ...o.env,
      ROLE: o.role,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const instance: Instance = { name: o.name, role: o.role, url, dataDir, child, exited };
  o.all.push(instance);
  // The last of what it printed (both streams), for the error when it does not start.
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', (chunk: Buffer) => {
    keep(chunk);
    o.onStderr?.(chunk.toString());
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${o.name} on ${url} did not start: ${output}`)), o.timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      if (!chunk.toString().includes('is running')) return;
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${o.name} exited early with ${code}: ${output}`));
    });
  });
  return instance;
}

/** SIGKILL to every process still alive; waits for them to go and removes their data folders. */
export async function killAll(all: Instance[]) {
  for (const i of all) if (i.child.exitCode === null && i.child.signalCode === null) i.child.kill('SIGKILL');
  await Promise.all(all.map((i) => i.exited));
  for (const i of all) rmSync(i.dataDir, { recursive: true, force: true });
}
