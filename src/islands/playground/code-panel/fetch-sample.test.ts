// View code's plain-fetch JavaScript, run as it is by Node against the real server: it submits, waits and prints the
// result.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../../../../server/test-support/listen';
import {
  createTasksTestApp,
  createUser,
  testEngine,
  type TasksTestApp,
  type TestUser,
} from '../../../../server/test-support/tasks';
import { speechCall } from './run-calls';
import { fetchSample } from './sdk-sample';

const run = promisify(execFile);
const folder = mkdtempSync(path.join(tmpdir(), 'fetch-sample-'));
let t: TasksTestApp;
let user: TestUser;
let server: Listening;

beforeAll(async () => {
  // A test engine: this project's page environment cannot start the eSpeak worker thread.
  t = await createTasksTestApp({
    engines: [testEngine({ name: 'ok', features: ['tts-common'] })],
    env: { ENGINES: 'tts-common=ok' },
  });
  await t.system.queue.start();
  user = await createUser(t, 50);
  server = await listen(t.app.fetch);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('the fetch sample', () => {
  it(
    'runs in Node as copied: the task is made, waited for and its audio link printed',
    { timeout: 60_000 },
    async () => {
      const call = speechCall({
        text: 'Hello from the sample',
        voice: 'en-us-female-1',
        quality: 'common',
        cloneId: null,
        settings: {},
      });
      const file = path.join(folder, 'sample.mjs');
      writeFileSync(file, fetchSample(call, `http://127.0.0.1:${server.port}`, user.apiKey));
      // Asynchronous: the server answering it runs in this process.
      const { stdout } = await run(process.execPath, [file], { timeout: 50_000 });
      expect(stdout.trim()).toMatch(/^http:\/\/\S+$/);
      const [task] = await t.database.db.selectFrom('tasks').select(['status', 'source']).execute();
      expect(task).toEqual({ status: 'succeeded', source: 'api' });
    },
  );
});
