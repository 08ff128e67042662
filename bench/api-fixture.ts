// Prepares a data folder for the API throughput bench: a user signed in twice, an API key and a finished task with one
// output; prints JSON.
import { loadConfig } from '../server/config';
import { migrateToLatest, openDatabase } from '../server/db';
import { lazyServerKeys } from '../server/accounts';
import { getOrCreateApiKey } from '../server/accounts/api-keys';
import { createSession } from '../server/accounts/sessions';
import { findOrCreateUserByEmail } from '../server/accounts/users';

// Run with DATA_DIR and SECRET_KEY set to what the server under test will use, so the key decrypts and URLs sign alike.
const config = loadConfig();
const database = await openDatabase(config.databaseUrl);
await migrateToLatest(database);
const { db } = database;

const { user } = await findOrCreateUserByEmail(db, 'api-bench@example.com', {});
// Two sessions: /user/info then reports isOld, as for anyone who signed in before.
await createSession(db, user.id);
const token = await createSession(db, user.id);
const apiKey = await getOrCreateApiKey(db, lazyServerKeys(config)().encryption, user.id);

const now = Date.now();
const taskId = `tbench${now}`;
await db
  .insertInto('tasks')
  .values({
    id: taskId,
    user_id: user.id,
    feature: 'tts-common',
    status: 'succeeded',
    source: 'api',
    input: JSON.stringify({ text: 'Hello from the throughput bench.', voice: 'en-US-female' }),
    output: null,
    progress: 100,
    engine: 'espeak',
    price_item: 'tts-common',
    credits_held: 1,
    credits_charged: 1,
    created_at: now - 2000,
    started_at: now - 1500,
    finished_at: now - 1000,
    updated_at: now - 1000,
    outputs_expired_at: null,
  })
  .execute();
await db
  .insertInto('media')
  .values({
    id: `mbench${now}`,
    user_id: user.id,
    task_id: taskId,
    kind: 'audio',
    mime: 'audio/wav',
    size: 64000,
    duration_ms: 2000,
    storage_key: `mbench${now}.wav`,
    created_at: now - 1000,
    expires_at: now + 24 * 3600 * 1000,
  })
  .execute();

await database.close();
process.stdout.write(JSON.stringify({ dbPath: config.databaseUrl.replace(/^sqlite:/, ''), token, apiKey, taskId }));
