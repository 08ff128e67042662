// The SDK as a package outside this repository: packed, installed by name into an empty project, type-checked there and
// run against the real server, the way View code tells people to use it.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSdk, packSdk } from '../../scripts/build-sdk.mjs';
import { SDK_PACKAGE } from '../../src/lib/product-rules';
import { listen, type Listening } from '../test-support/listen';
import { createTasksTestApp, createUser, type TasksTestApp, type TestUser } from '../test-support/tasks';

const root = path.resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(path.join(root, 'src/lib/sdk/package.json'), 'utf8')) as { name: string };
const run = promisify(execFile);
const project = mkdtempSync(path.join(tmpdir(), 'sdk-consumer-'));
let t: TasksTestApp;
let user: TestUser;
let server: Listening;

beforeAll(async () => {
  await buildSdk();
  const tarball = packSdk(path.join(project, 'packed')) as string;
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  // No dependencies to fetch: the install works offline.
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], {
    cwd: project,
    stdio: 'pipe',
  });
  t = await createTasksTestApp({ env: { ENGINES: 'tts-common=espeak' } });
  await t.system.queue.start();
  user = await createUser(t, 50);
  server = await listen(t.app.fetch);
}, 180_000);
afterAll(async () => {
  await server?.close();
  await t?.close();
  rmSync(project, { recursive: true, force: true });
});

// Each test starts a compiler or a Node process of its own.
describe(`the SDK package (${manifest.name})`, { timeout: 120_000 }, () => {
  it('installs by name and carries only its bundle, its types and its README', () => {
    // The name View code tells people to install.
    expect(manifest.name).toBe(SDK_PACKAGE.name);
    const installed = path.join(project, 'node_modules', manifest.name);
    const shipped = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as {
      dependencies?: object;
      exports: object;
    };
    expect(shipped.dependencies ?? {}).toEqual({});
    expect(readFileSync(path.join(installed, 'dist/index.js'), 'utf8')).not.toMatch(/from ["'](node:|\.\.?\/)/);
  });

  it('type-checks in a project of its own, by name', () => {
    writeFileSync(
      path.join(project, 'check.ts'),
      [
        `import { createDreamApiClient, type TaskResult } from '${manifest.name}';`,
        `const client = createDreamApiClient({ apiKey: 'sk-x', baseUrl: 'https://example.com' });`,
        `export const later: Promise<TaskResult> = client.ttsCommon({ text: 'Hi', lan: 'en-US' }).then(({ taskId }) => client.wait(taskId));`,
        // The answer types are the server's schemas written out in full: every field, no zod needed to read them.
        `export const expired = (r: TaskResult): boolean | null => r.task.outputsExpired && r.task.outputsExpiredAt !== null;`,
        // A wrong field must be an error, or the types check nothing.
        `// @ts-expect-error text is required`,
        `client.ttsCommon({ lan: 'en-US' });`,
      ].join('\n'),
    );
    const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
    const flags = [
      '--noEmit',
      '--strict',
      '--target',
      'es2022',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--lib',
      'es2022,dom',
    ];
    const problems = (() => {
      try {
        execFileSync(process.execPath, [tsc, ...flags, 'check.ts'], { cwd: project, stdio: 'pipe' });
        return '';
      } catch (error) {
        return String((error as { stdout?: Buffer }).stdout ?? error);
      }
    })();
    expect(problems).toBe('');
  });

  it('submits a task and waits for its result against the real server, run by plain Node outside this repository', async () => {
    writeFileSync(
      path.join(project, 'run.mjs'),
      [
        `import { createDreamApiClient } from '${manifest.name}';`,
        `const client = createDreamApiClient({ apiKey: process.env.KEY, baseUrl: process.env.BASE });`,
        `const { taskId } = await client.ttsCommon({ text: 'Hello from a package', lan: 'en-US' });`,
        `const result = await client.wait(taskId);`,
        `console.log(JSON.stringify({ status: result.task.statusName, audio: result.audios[0]?.audioUrl ?? null }));`,
      ].join('\n'),
    );
    // Asynchronous: the server answering it runs in this process.
    const { stdout } = await run(process.execPath, ['run.mjs'], {
      cwd: project,
      env: { ...process.env, KEY: user.apiKey, BASE: `http://127.0.0.1:${server.port}` },
    });
    const answer = JSON.parse(stdout.trim()) as { status: string; audio: string | null };
    expect(answer.status).toBe('succeeded');
    expect(answer.audio).toMatch(/^http/);
  });
});
