// Process start: spawn → "listening" for the built server and under tsx on a fresh data dir (migrations included),
// beside a bare node:http server; median and worst of several starts. Every scaled-out worker, restart and test
// process pays it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverCommand } from '../scripts/server-command.mjs';

const root = path.resolve(import.meta.dirname, '..');
const STARTS = 7;
const BARE = `require('node:http').createServer((q, s) => s.end()).listen(0, '127.0.0.1', function () {
  console.log(JSON.stringify({ msg: 'listening', port: this.address().port }));
});`;

/** Milliseconds from spawn to the process's "listening" line, then it is killed. */
function timeToListen(command) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-start-'));
  const started = performance.now();
  const child = spawn(command.command, command.args, {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, SECRET_KEY: 'b'.repeat(40), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const read = (chunk) => {
      if (!chunk.toString().includes('"listening"')) return;
      resolve(performance.now() - started);
      child.kill('SIGKILL');
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', () => {
      rmSync(dir, { recursive: true, force: true });
      reject(new Error(`${command.args.join(' ')} exited before listening`));
    });
  });
}

async function row(name, command) {
  const times = [];
  for (let i = 0; i < STARTS; i++) times.push(await timeToListen(command));
  times.sort((a, b) => a - b);
  return {
    process: name,
    starts: STARTS,
    'median ms': Math.round(times[STARTS >> 1]),
    'worst ms': Math.round(times.at(-1)),
  };
}

export async function processStart() {
  return [
    await row('built server (npm start)', await serverCommand()),
    await row('server under tsx (test processes)', await serverCommand({ loader: 'tsx' })),
    await row('bare node:http', { command: process.execPath, args: ['-e', BARE] }),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await processStart());
