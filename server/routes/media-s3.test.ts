// Media in an S3-compatible bucket through the real app: uploads and results land in the bucket, signed links redirect
// to presigned ones under the same access rules, cleanup removes objects, and a second instance serves what the first
// stored.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { createLogger } from '../log';
import { signedLinkParams } from '../media';
import { createTaskSystem } from '../tasks';
import { inputReader } from '../tasks/input-media';
import { ERROR_CODES, MEDIA_LIMITS, OBJECT_STORAGE_MESSAGES, TASK_MESSAGES } from '../../src/lib/product-rules';
import type { MediaInfo } from '../../src/lib/api/types';
import { startTestS3, type TestS3 } from '../test-support/s3';
import { tasksTestConfig, uploadAs } from '../test-support/tasks';
import { testEngine, type TestTaskApp, type TestUser, testApps } from '../test-support/task-apps';
import { silentWav } from '../test-support/wav';

const openApp = testApps({ per: 'block' });
let s3: TestS3;
let t: TestTaskApp;
let user: TestUser;
let bucket: S3Client;
const prefix = `run-${randomBytes(4).toString('hex')}/`;
const wav = silentWav(1, 8000);

const pathOf = (url: string) => url.slice('http://localhost:8787'.length);

async function objectExists(key: string): Promise<boolean> {
  try {
    await bucket.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `${prefix}${key}` }));
    return true;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw error;
  }
}

async function storageKey(id: string) {
  return (await t.database.db.selectFrom('media').select('storage_key').where('id', '=', id).executeTakeFirstOrThrow())
    .storage_key;
}

beforeAll(async () => {
  s3 = await startTestS3();
  t = await openApp({ engines: [testEngine()], env: { ...s3.env(prefix), ENGINES: 'tts-common=test' } });
  user = await t.createUser(10);
  bucket = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
});
afterAll(async () => {
  bucket.destroy();
  await s3.close();
});

describe('media on S3-compatible storage', () => {
  let upload: MediaInfo;

  it('stores an upload in the bucket, not on local disk', async () => {
    upload = await uploadAs(t, user, wav, 'voice.wav', 'audio/wav');
    expect(await objectExists(await storageKey(upload.id))).toBe(true);
    const mediaDir = t.config.tasks.mediaDir;
    expect(existsSync(mediaDir) ? readdirSync(mediaDir) : []).toEqual([]);
  });

  it('answers a signed link with a redirect to a presigned URL that serves the same bytes, type and name', async () => {
    const res = await t.app.request(pathOf(upload.url));
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toContain('no-store');
    const location = new URL(res.headers.get('location')!);
    expect(location.origin).toBe(s3.endpoint);
    expect(location.pathname).toBe(`/${s3.bucket}/${prefix}${await storageKey(upload.id)}`);
    const remainingS = (Number(new URL(upload.url).searchParams.get('exp')) - Date.now()) / 1000;
    expect(Number(location.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(remainingS);
    const served = await fetch(location);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('audio/wav');
    expect(served.headers.get('content-disposition')).toBe(`inline; filename="${upload.id}.wav"`);
    expect(Buffer.compare(Buffer.from(await served.arrayBuffer()), wav)).toBe(0);
  });

  it('mints a presigned URL that lives no longer than the signed link has left', async () => {
    const row = (await t.system.media.byId(upload.id))!;
    // A link signed almost a full lifetime ago has about 30 seconds left.
    const link = t.system.media.signedUrl(row, Date.now() - MEDIA_LIMITS.signedUrlTtlMs + 30_000);
    const res = await t.app.request(pathOf(link));
    expect(res.status).toBe(302);
    const expires = Number(new URL(res.headers.get('location')!).searchParams.get('X-Amz-Expires'));
    expect(expires).toBeGreaterThan(0);
    expect(expires).toBeLessThanOrEqual(30);
  });

  it('keeps the access rules: a bad signature, a changed or past expiry get 403 and no link to storage', async () => {
    const row = (await t.system.media.byId(upload.id))!;
    const good = new URL(upload.url);
    const tampered = new URL(good);
    // The first character changed (never to itself): it carries six whole bits of the HMAC.
    const sig = good.searchParams.get('sig')!;
    tampered.searchParams.set('sig', `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`);
    const stretched = new URL(good);
    stretched.searchParams.set('exp', String(Number(good.searchParams.get('exp')) + 1000));
    const past = t.system.media.signedUrl(row, Date.now() - 2 * MEDIA_LIMITS.signedUrlTtlMs);
    const unsigned = `${good.pathname}`;
    for (const link of [tampered.href, stretched.href, past, unsigned]) {
      const res = await t.app.request(link.startsWith('http') ? pathOf(link) : link);
      expect({ link, status: res.status, location: res.headers.get('location') }).toEqual({
        link,
        status: 403,
        location: null,
      });
      expect(((await res.json()) as { msg: string }).msg).toBe(TASK_MESSAGES.mediaExpired);
    }
  });

  it("stores a task's result in the bucket, and engines read this server's own media from it", async () => {
    await t.system.queue.start();
    const res = await t.app.request('/api/async/do_tts_common', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.apiKey}` },
      body: JSON.stringify({ text: 'stored remotely' }),
    });
    const { taskId } = ((await res.json()) as { data: { taskId: string } }).data;
    expect((await t.waitForTask(taskId)).status).toBe('succeeded');
    const outputs = await t.database.db
      .selectFrom('media')
      .select(['id', 'storage_key'])
      .where('task_id', '=', taskId)
      .execute();
    expect(outputs).toHaveLength(1);
    expect(await objectExists(outputs[0]!.storage_key)).toBe(true);

    const readInput = inputReader({
      media: t.system.media,
      publicUrl: t.config.publicUrl,
      outbound: { allowPrivate: false },
    });
    const input = await readInput(upload.url, ['audio'], AbortSignal.timeout(10_000));
    expect(Buffer.compare(input.data, wav)).toBe(0);

    // Deleting the task from history removes its result from the bucket.
    await t.system.media.deleteForTask(taskId);
    expect(await objectExists(outputs[0]!.storage_key)).toBe(false);
  });

  it('serves from a second instance (same database, same bucket, its own disk) what the first stored', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'second-instance-'));
    try {
      const config = tasksTestConfig(dataDir, s3.env(prefix));
      const log = createLogger(config.logLevel);
      const system = createTaskSystem({ config, database: t.database, log });
      const second = createApp({ config, database: t.database, log, tasks: system });
      const res = await second.request(pathOf(upload.url));
      expect(res.status).toBe(302);
      const served = await fetch(res.headers.get('location')!);
      expect(Buffer.compare(Buffer.from(await served.arrayBuffer()), wav)).toBe(0);
      // Its engines read the first instance's upload too.
      const opened = await system.media.open(
        upload.id,
        signedLinkParams((name) => new URL(upload.url).searchParams.get(name)),
      );
      expect(opened && Buffer.compare(opened.data, wav)).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('removes expired media from the bucket in the retention pass, and a second pass finds nothing left', async () => {
    const key = await storageKey(upload.id);
    await t.database.db
      .updateTable('media')
      .set({ expires_at: Date.now() - 1000 })
      .where('id', '=', upload.id)
      .execute();
    expect(await t.system.cleanup()).toBeGreaterThanOrEqual(1);
    expect(await objectExists(key)).toBe(false);
    expect(await t.system.media.byId(upload.id)).toBeUndefined();
    expect(await t.system.cleanup()).toBe(0);
  });
});

describe('media storage unreachable', () => {
  it('refuses an upload with 503 and a message to retry, and keeps no record of it', async () => {
    const gone = await startTestS3('gone-bucket');
    const app = await openApp({ env: gone.env() });
    await gone.close();
    const someone = await app.createUser(0);
    const form = new FormData();
    form.append('file', new Blob([wav], { type: 'audio/wav' }), 'voice.wav');
    const res = await app.app.request('/api-playground/file/v1/upload', {
      method: 'POST',
      headers: { token: someone.token },
      body: form,
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      code: ERROR_CODES.unavailable,
      msg: OBJECT_STORAGE_MESSAGES.unavailable,
    });
    expect(await app.database.db.selectFrom('media').select('id').execute()).toEqual([]);
  });
});
