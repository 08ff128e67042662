// A worker process for the restart test: runs the task queue against DATABASE_URL with a slow test engine, until
// killed.
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '../db';
import { createLogger } from '../log';
import { createTaskSystem } from '../tasks';
import { testEngine } from './tasks';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', ENGINES: 'tts-common=test', TASK_POLL_MS: '50' });
const database = await openDatabase(config.databaseUrl);
await migrateToLatest(database);
const system = createTaskSystem({
  config,
  database,
  log: createLogger('silent'),
  extraEngines: [testEngine({ delayMs: Number(process.env.TEST_ENGINE_DELAY_MS ?? 1500) })],
});
await system.start();
process.stdout.write('ready\n');
