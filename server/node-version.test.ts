// The Node version check every npm script runs first (scripts/require-node.mjs), and npm's own engine-strict setting.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const script = path.join(root, 'scripts', 'require-node.mjs');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};
const required = /^>=(\d+)\.(\d+)/.exec(pkg.engines.node)!.slice(1).map(Number) as [number, number];

function versionOf(node: string): [number, number] | null {
  const run = spawnSync(node, ['--version'], { encoding: 'utf8' });
  const found = run.status === 0 ? /^v(\d+)\.(\d+)/.exec(run.stdout) : null;
  return found ? [Number(found[1]), Number(found[2])] : null;
}

/** A Node older than package.json's engines on this machine (CI images carry the system's Node 20 at /usr/bin/node). */
const oldNode = ['/usr/bin/node', '/usr/local/bin/node', '/usr/bin/nodejs'].find((node) => {
  const version = versionOf(node);
  return version !== null && (version[0] < required[0] || (version[0] === required[0] && version[1] < required[1]));
});
if (!oldNode)
  console.warn(
    `node-version.test.ts: no Node older than ${pkg.engines.node} on this machine, so the old-Node run is skipped`,
  );

const check = (node: string, file = script) => spawnSync(node, [file], { encoding: 'utf8' });
const HOW_TO = 'npm install --prefix ~/.cache/node24 node@24';

describe('scripts/require-node.mjs', () => {
  it('lets the Node running the tests through, silently', () => {
    const run = check(process.execPath);
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('stops a Node older than engines.node at once, naming the version needed and how to get it', () => {
    // The real script next to a package.json asking for a Node that does not exist yet: this Node is "too old".
    const dir = mkdtempSync(path.join(tmpdir(), 'require-node-'));
    try {
      mkdirSync(path.join(dir, 'scripts'));
      copyFileSync(script, path.join(dir, 'scripts', 'require-node.mjs'));
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ engines: { node: '>=999.0.0' } }));
      const run = check(process.execPath, path.join(dir, 'scripts', 'require-node.mjs'));
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('needs Node.js >=999.0.0');
      expect(run.stderr).toContain(`this is Node.js ${process.version}`);
      expect(run.stderr).toContain(HOW_TO);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!oldNode)(`runs on the old Node itself (${oldNode ?? 'none here'}) and refuses it`, () => {
    const run = check(oldNode!);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`needs Node.js ${pkg.engines.node}`);
    expect(run.stderr).toContain(HOW_TO);
  });

  it('is run first by every npm script', () => {
    const without = Object.entries(pkg.scripts).filter(
      ([, command]) => !command.startsWith('node scripts/require-node.mjs && '),
    );
    expect(without).toEqual([]);
  });
});

describe('npm install and npm ci', () => {
  it('refuse an unsupported Node (engine-strict in the project .npmrc)', () => {
    const run = spawnSync('npm', ['config', 'get', 'engine-strict'], { cwd: root, encoding: 'utf8' });
    expect(run.stdout.trim()).toBe('true');
  });
});
