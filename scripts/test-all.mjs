// `npm test`: type checks, lint and the site build side by side, then unit and end-to-end tests, then one summary line
// of counts.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'test-results');
rmSync(path.join(results, 'unit-results.json'), { force: true });
rmSync(path.join(results, 'e2e-results.json'), { force: true });
mkdirSync(results, { recursive: true });

const bin = (name) => path.join(root, 'node_modules/.bin', name);
// The checks are independent, mostly single-threaded jobs: they run side by side, each printing its output when it
// ends; the test runners use every core themselves, so they run one after the other.
const phases = [
  [
    [
      // Both write Astro's generated types (.astro/), so the build waits for the check.
      { name: 'astro check', cmd: bin('astro'), args: ['check', '--minimumFailingSeverity', 'warning'] },
      { name: 'site build', cmd: process.execPath, args: [path.join(root, 'scripts/build-site.mjs'), '--if-stale'] },
    ],
    [{ name: 'tsc (server)', cmd: bin('tsc'), args: ['--noEmit', '-p', 'tsconfig.server.json'] }],
    [
      { name: 'eslint', cmd: bin('eslint'), args: ['--max-warnings', '0', '.'] },
      { name: 'prettier', cmd: bin('prettier'), args: ['--check', '.'] },
    ],
  ],
  [
    [
      {
        name: 'unit tests (vitest)',
        cmd: bin('vitest'),
        args: [
          'run',
          '--reporter=default',
          '--reporter=json',
          `--outputFile.json=${path.join(results, 'unit-results.json')}`,
        ],
        live: true,
      },
    ],
  ],
  [
    [
      {
        name: 'end-to-end tests (playwright)',
        cmd: bin('playwright'),
        args: ['test', '-c', 'tests/e2e/playwright.config.ts'],
        live: true,
      },
    ],
  ],
];

/** Runs one step; a live step shares the terminal, the others' output is held and printed in one piece at the end. */
function runStep(step) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(step.cmd, step.args, {
      cwd: root,
      env: process.env,
      stdio: step.live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    const finish = (ok) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      if (!step.live)
        process.stdout.write(`\n=== ${step.name} (${seconds} s) ===\n${Buffer.concat(output).toString()}`);
      else console.log(`=== ${step.name} took ${seconds} s ===`);
      resolve({ name: step.name, ok });
    };
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      finish(false);
    });
    child.on('close', (code) => finish(code === 0));
  });
}

/** Runs a chain's steps one after another (all of them, so every failure is reported). */
async function runChain(chain) {
  const done = [];
  for (const step of chain) {
    if (step.live) console.log(`\n=== ${step.name} ===`);
    done.push(await runStep(step));
  }
  return done;
}

// A phase is a list of chains that run side by side.
const outcomes = [];
for (const phase of phases) outcomes.push(...(await Promise.all(phase.map(runChain))).flat());

function readJson(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}
const unit = readJson(path.join(results, 'unit-results.json'));
const e2e = readJson(path.join(results, 'e2e-results.json'));
const unitPassed = unit?.numPassedTests ?? 0;
const unitFailed = unit?.numFailedTests ?? 0;
const unitSkipped = (unit?.numPendingTests ?? 0) + (unit?.numTodoTests ?? 0);
const e2ePassed = e2e?.stats?.expected ?? 0;
const e2eFailed = (e2e?.stats?.unexpected ?? 0) + (e2e?.stats?.flaky ?? 0);
const e2eSkipped = e2e?.stats?.skipped ?? 0;

console.log('\n=== summary ===');
for (const outcome of outcomes) console.log(`${outcome.ok ? 'ok  ' : 'FAIL'}  ${outcome.name}`);
console.log(
  `unit: ${unitPassed} passed, ${unitFailed} failed, ${unitSkipped} skipped; e2e: ${e2ePassed} passed, ${e2eFailed} failed, ${e2eSkipped} skipped`,
);
const stepFailures = outcomes.filter((o) => !o.ok).length;
const failed = unitFailed + e2eFailed + (stepFailures > 0 && unitFailed + e2eFailed === 0 ? stepFailures : 0);
const passed = unitPassed + e2ePassed;
// Skips are counted, never hidden: in CI (REQUIRE_TEST_SERVICES) a test whose service is missing fails instead.
console.log(`${passed} passed, ${failed} failed, ${unitSkipped + e2eSkipped} skipped`);
process.exit(stepFailures > 0 || passed === 0 ? 1 : 0);
