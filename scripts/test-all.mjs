// `npm test`: type checks, lint, unit tests and end-to-end tests in order, then one summary line of counts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'test-results');
rmSync(path.join(results, 'unit-results.json'), { force: true });
rmSync(path.join(results, 'e2e-results.json'), { force: true });
mkdirSync(results, { recursive: true });

const bin = (name) => path.join(root, 'node_modules/.bin', name);
const steps = [
  { name: 'astro check', cmd: bin('astro'), args: ['check', '--minimumFailingSeverity', 'warning'] },
  { name: 'tsc (server)', cmd: bin('tsc'), args: ['--noEmit', '-p', 'tsconfig.server.json'] },
  { name: 'eslint', cmd: bin('eslint'), args: ['--max-warnings', '0', '.'] },
  {
    name: 'unit tests (vitest)',
    cmd: bin('vitest'),
    args: ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(results, 'unit-results.json')}`],
  },
  { name: 'end-to-end tests (playwright)', cmd: bin('playwright'), args: ['test', '-c', 'tests/e2e/playwright.config.ts'] },
];

const outcomes = [];
for (const step of steps) {
  console.log(`\n=== ${step.name} ===`);
  const run = spawnSync(step.cmd, step.args, { cwd: root, stdio: 'inherit', env: process.env });
  outcomes.push({ name: step.name, ok: run.status === 0 });
}

function readJson(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}
const unit = readJson(path.join(results, 'unit-results.json'));
const e2e = readJson(path.join(results, 'e2e-results.json'));
const unitPassed = unit?.numPassedTests ?? 0;
const unitFailed = unit?.numFailedTests ?? 0;
const e2ePassed = e2e?.stats?.expected ?? 0;
const e2eFailed = (e2e?.stats?.unexpected ?? 0) + (e2e?.stats?.flaky ?? 0);

console.log('\n=== summary ===');
for (const outcome of outcomes) console.log(`${outcome.ok ? 'ok  ' : 'FAIL'}  ${outcome.name}`);
console.log(`unit: ${unitPassed} passed, ${unitFailed} failed; e2e: ${e2ePassed} passed, ${e2eFailed} failed`);
const stepFailures = outcomes.filter((o) => !o.ok).length;
const failed = unitFailed + e2eFailed + (stepFailures > 0 && unitFailed + e2eFailed === 0 ? stepFailures : 0);
const passed = unitPassed + e2ePassed;
console.log(`${passed} passed, ${failed} failed`);
process.exit(stepFailures > 0 || passed === 0 ? 1 : 0);
