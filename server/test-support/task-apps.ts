// Test-only: the task apps of a test file, each started as asked, making its own users and waiting on its own tasks,
// and closed once the test (or the block) is over.
import { afterAll, afterEach } from 'vitest';
import {
  createTasksTestApp,
  createUser,
  creditState,
  submitSpeech,
  waitForTask,
  type TasksTestApp,
  type TasksTestOptions,
  type TestUser,
} from './tasks';

// What a test needs beside its apps, so a test file imports from this module alone.
export { testEngine, type TestUser } from './tasks';

/** A test's app, with the calls every task test makes on it. */
export interface TestTaskApp extends TasksTestApp {
  /** A user granted `credits` through the ledger, with a session and an API key. */
  createUser(credits: number): Promise<TestUser>;
  /** The task once it reached a finished status. */
  waitForTask(id: string, timeoutMs?: number): ReturnType<typeof waitForTask>;
  /** Balance and ledger of a user. */
  creditState(userId: string): ReturnType<typeof creditState>;
  /** A tts-common task submitted to the task service itself (see submitSpeech). */
  submitSpeech(userId: string, text: string, source?: 'api' | 'playground'): ReturnType<typeof submitSpeech>;
}

export interface TestAppOptions extends TasksTestOptions {
  /** What runs at once: the whole task system or only its queue; nothing by default (the test starts it). */
  start?: 'system' | 'queue';
}

/**
 * Apps for the calling block: the answered function opens one. Each is closed after the test that opened it (or,
 * `per: 'block'`, after the block's last test) unless the test closed it first; `reset` runs after each test.
 */
export function testApps(
  o: { per?: 'test' | 'block'; reset?: () => void } = {},
): (options?: TestAppOptions) => Promise<TestTaskApp> {
  const open = new Set<TasksTestApp>();
  const closeAll = async () => {
    for (const t of open) await t.close();
  };
  if (o.per === 'block') afterAll(closeAll);
  afterEach(async () => {
    if (o.per !== 'block') await closeAll();
    o.reset?.();
  });
  return async ({ start, ...options } = {}) => {
    const t = await createTasksTestApp(options);
    const close = t.close;
    const app: TestTaskApp = Object.assign(t, {
      close() {
        open.delete(t);
        return close();
      },
      createUser: (credits: number) => createUser(t, credits),
      waitForTask: (id: string, timeoutMs?: number) => waitForTask(t, id, timeoutMs),
      creditState: (userId: string) => creditState(t, userId),
      submitSpeech: (userId: string, text: string, source?: 'api' | 'playground') =>
        submitSpeech(t.system, userId, text, source),
    });
    open.add(t);
    if (start === 'system') await t.system.start();
    if (start === 'queue') await t.system.queue.start();
    return app;
  };
}
