// Runs one TypeScript bench (the server and its test support are TypeScript) under tsx in a process of its own and
// answers the rows it prints as JSON on the last line of its stdout.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/**
 * `script` is a file of bench/; `what` names it in the error when it fails. `showStderr` passes its stderr on even when
 * it succeeds (its progress and warnings); otherwise that is shown only in the error. `nodeOptions` go before tsx's.
 */
export function runTsxBench(script, what, { showStderr = false, timeoutMs = 0, nodeOptions = [] } = {}) {
  const run = spawnSync(process.execPath, [...nodeOptions, '--import', 'tsx', path.join(root, 'bench', script)], {
    cwd: root,
    encoding: 'utf8',
    timeout: timeoutMs,
    // The long benches report as they go on stderr: far past the 1 MB default over a run of minutes.
    maxBuffer: 64 * 1024 * 1024,
  });
  if (showStderr && run.stderr) process.stderr.write(run.stderr);
  if (run.status !== 0)
    throw new Error(`${what} failed (${run.status ?? run.signal})${showStderr ? '' : `:\n${run.stderr}`}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1));
}
