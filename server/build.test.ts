// The built server (scripts/build-server.mjs, what npm start and the image run): plain Node starts it, it answers, and
// files it opens by URL sit beside it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
// Inside the project, so the bundle's package imports resolve from its node_modules as they do from dist-server/.
const cache = path.join(root, 'node_modules/.cache');
let outdir: string;
let dataDir: string;
let server: ChildProcess | undefined;

beforeAll(() => {
  mkdirSync(cache, { recursive: true });
  outdir = mkdtempSync(path.join(cache, 'server-build-test-'));
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'server-build-data-'));
  const built = spawnSync(process.execPath, [path.join(root, 'scripts/build-server.mjs'), outdir], {
    cwd: root,
    encoding: 'utf8',
  });
  expect(built.status, built.stderr).toBe(0);
}, 60_000);

afterAll(() => {
  server?.kill('SIGKILL');
  rmSync(outdir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts the bundle with plain `node`, no loader; resolves with its base URL once it says it is running. */
function start(): Promise<string> {
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    SITE_DIR: path.join(dataDir, 'no-site'),
    LOG_LEVEL: 'error',
    NODE_OPTIONS: '',
  };
  server = spawn(process.execPath, [path.join(outdir, 'main.mjs')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    server!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const port = /is running at http:\/\/localhost:(\d+)/.exec(out)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}`);
    });
    server!.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    server!.once('exit', (code) => reject(new Error(`the built server exited with ${code}: ${err}`)));
  });
}

describe('the built server', () => {
  it('has every file it opens by a URL relative to its own module next to it', () => {
    const bundle = readFileSync(path.join(outdir, 'main.mjs'), 'utf8');
    // A `.ts` URL is the from-source branch (taken only while the module itself is TypeScript), never in the bundle's
    // path.
    const relative = [...bundle.matchAll(/new URL\(\s*["'](\.\/[^"']+)["']\s*,\s*import\.meta\.url\s*\)/g)]
      .map((m) => m[1]!)
      .filter((file) => !file.endsWith('.ts'));
    expect(relative.length).toBeGreaterThan(0);
    for (const file of relative) expect(existsSync(path.join(outdir, file)), file).toBe(true);
  });

  it('starts under plain node, migrates, answers health and API calls, and stops on SIGTERM', async () => {
    const base = await start();
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ code: 0, data: { database: { engine: 'sqlite', up: true } } });
    const info = await fetch(`${base}/user/info`, { method: 'POST' });
    expect(info.status).toBe(401);
    const exited = new Promise<number | null>((resolve) => server!.once('exit', resolve));
    server!.kill('SIGTERM');
    expect(await exited).toBe(0);
    // A cold start of the built server takes seconds on a busy machine.
  }, 90_000);
});
