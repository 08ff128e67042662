// Uploads straight to the bucket (real s3rver): get_policy's presigned POST, the browser form POST, and finish's
// checks.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIRECT_UPLOADS,
  ERROR_CODES,
  OBJECT_STORAGE_MESSAGES,
  TASK_MESSAGES,
  UPLOAD_LIMITS,
} from '../../src/lib/product-rules';
import type { MediaInfo } from '../../src/lib/api/types';
import { startTestS3, type TestS3 } from '../test-support/s3';
import { createTasksTestApp, createUser, type TasksTestApp, type TestUser } from '../test-support/tasks';
import { silentWav } from '../test-support/wav';
import { ffmpegTools, runTool, withWorkDir } from '../tools';

let s3: TestS3;
let t: TasksTestApp;
let user: TestUser;
let bucket: S3Client;
const prefix = `run-${randomBytes(4).toString('hex')}/`;
const MB = 1024 * 1024;
/** A PNG signature and the IHDR chunk header that must follow it. */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from('IHDR'),
  Buffer.alloc(64),
]);

interface Policy {
  reqId: string;
  host: string;
  expireAt: number;
  fields: Record<string, string>;
  accept: string[];
}
type Answer<T> = { status: number; body: { code: number; msg: string; data: T } };

async function call<T>(
  path: string,
  body: object,
  auth: Record<string, string> = { authorization: `Bearer ${user.apiKey}` },
): Promise<Answer<T>> {
  const res = await t.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer<T>['body'] };
}

/**
 * What a browser does with the policy: its fields, the file's own type, the file last; answers the storage's status.
 */
async function post(policy: Policy, bytes: Uint8Array, type: string): Promise<number> {
  const form = new FormData();
  for (const [name, value] of Object.entries(policy.fields)) form.append(name, name === 'Content-Type' ? type : value);
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), 'upload');
  // One more try when a kept-alive connection was closed by s3rver just as it was reused (its 5 s idle timeout).
  const res = await fetch(policy.host, { method: 'POST', body: form }).catch(() =>
    fetch(policy.host, { method: 'POST', body: form }),
  );
  await res.arrayBuffer();
  return res.status;
}

async function exists(key: string): Promise<boolean> {
  try {
    await bucket.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
    return true;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw error;
  }
}
const incomingKey = (reqId: string) => `${prefix}${DIRECT_UPLOADS.incomingFolder}${reqId}`;
const policyConditions = (policy: Policy) =>
  JSON.parse(Buffer.from(policy.fields.Policy!, 'base64').toString()) as { conditions: unknown[]; expiration: string };

/** get_policy, the POST to the bucket, then finish: the finish answer. */
async function sendAndFinish(scene: string, bytes: Uint8Array, type: string) {
  const policy = (await call<Policy>('/api/file/v1/get_policy', { scene })).body.data;
  expect(await post(policy, bytes, type)).toBe(204);
  return {
    policy,
    finish: await call<{ url: string; fileId: string; mime: string; size: number; durationS: number | null }>(
      '/api/file/v1/policy_upload_finish',
      {
        reqId: policy.reqId,
      },
    ),
  };
}

beforeAll(async () => {
  s3 = await startTestS3();
  t = await createTasksTestApp({ env: s3.env(prefix) });
  user = await createUser(t, 10);
  bucket = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
});
afterAll(async () => {
  await t.close();
  bucket.destroy();
  await s3.close();
});

describe('get_policy with S3 configured', () => {
  it('hands out a presigned POST to the bucket, limited to the scene kind, its size cap and a short time, under the media prefix', async () => {
    const before = Date.now();
    const { status, body } = await call<Policy>('/api/file/v1/get_policy', { scene: 'audio' });
    expect(status).toBe(200);
    const policy = body.data;
    expect(policy.host).toBe(`${s3.endpoint}/${s3.bucket}`);
    expect(policy.accept).toEqual(['audio']);
    expect(policy.fields.key).toBe(incomingKey(policy.reqId));
    expect(policy.fields['Content-Type']).toBe('audio/');
    expect(policy.fields).toHaveProperty('X-Amz-Signature');
    const { conditions, expiration } = policyConditions(policy);
    expect(conditions).toContainEqual(['content-length-range', 1, UPLOAD_LIMITS.audio.maxBytes]);
    expect(conditions).toContainEqual(['starts-with', '$Content-Type', 'audio/']);
    expect(conditions).toContainEqual({ key: incomingKey(policy.reqId) });
    // The type is a prefix condition, not a fixed field: a browser may send the file's own type.
    expect(conditions).not.toContainEqual({ 'Content-Type': 'audio/' });
    const expires = Date.parse(expiration);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + DIRECT_UPLOADS.formTtlS * 1000);
    expect(policy.expireAt).toBeLessThanOrEqual(Date.now() + DIRECT_UPLOADS.formTtlS * 1000);
  });

  it('takes the largest cap of a scene of several kinds, whose type the bytes decide at finish', async () => {
    const policy = (await call<Policy>('/api/file/v1/get_policy', { scene: 'any' })).body.data;
    const { conditions } = policyConditions(policy);
    expect(conditions).toContainEqual(['content-length-range', 1, UPLOAD_LIMITS.video.maxBytes]);
    expect(conditions).toContainEqual(['starts-with', '$Content-Type', '']);
  });
});

describe('policy_upload_finish of a file sent straight to the bucket', () => {
  it('checks a good file, copies it to a key of its own with its proved type, and answers a URL serving it; again answers the same', async () => {
    const wav = silentWav(2, 8000);
    const { policy, finish } = await sendAndFinish('audio', wav, 'audio/wav');
    expect(finish.status).toBe(200);
    expect(finish.body.data).toMatchObject({ mime: 'audio/wav', size: wav.length });
    expect(finish.body.data.durationS).toBeCloseTo(2, 1);
    const row = (await t.system.media.byId(finish.body.data.fileId))!;
    const stored = await bucket.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `${prefix}${row.storage_key}` }));
    expect(stored.ContentType).toBe('audio/wav');
    // The incoming copy is gone: the policy's form cannot swap the checked file any more.
    expect(await exists(incomingKey(policy.reqId))).toBe(false);
    const served = await t.app.request(new URL(finish.body.data.url).pathname + new URL(finish.body.data.url).search);
    expect(served.status).toBe(302);
    expect(Buffer.compare(Buffer.from(await (await fetch(served.headers.get('location')!)).arrayBuffer()), wav)).toBe(
      0,
    );
    const again = await call<{ fileId: string }>('/api/file/v1/policy_upload_finish', { reqId: policy.reqId });
    expect(again.body.data.fileId).toBe(finish.body.data.fileId);
  });

  it('takes an image on its first bytes alone', async () => {
    const { finish } = await sendAndFinish('image', PNG, 'image/png');
    expect(finish.status).toBe(200);
    expect(finish.body.data).toMatchObject({ mime: 'image/png', size: PNG.length, durationS: null });
  });

  it('takes an MP3 whose ID3 tag is longer than the first bytes read, from the whole file', async () => {
    const mp3 = await withWorkDir('id3-', async (dir) => {
      const file = path.join(dir, 'tagged.mp3');
      const tools = ffmpegTools();
      if (!tools) throw new Error('ffmpeg is needed to make the test MP3');
      await runTool(tools.ffmpeg, [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:duration=2',
        '-metadata',
        `comment=${'a'.repeat(100_000)}`,
        '-y',
        file,
      ]);
      return readFile(file);
    });
    expect(mp3.subarray(0, 3).toString()).toBe('ID3');
    const { finish } = await sendAndFinish('audio', mp3, 'audio/mpeg');
    expect(finish.status).toBe(200);
    expect(finish.body.data.mime).toBe('audio/mpeg');
    expect(finish.body.data.durationS).toBeCloseTo(2, 0);
  });

  it('refuses a file of the wrong type, removes it and records nothing', async () => {
    const before = await t.database.db.selectFrom('media').select('id').execute();
    // The bucket was told image/… is audio: only the bytes count.
    const { policy, finish } = await sendAndFinish('audio', PNG, 'audio/wav');
    expect(finish.status).toBe(415);
    expect(finish.body.code).toBe(ERROR_CODES.unsupportedMediaType);
    expect(finish.body.msg).toContain('this is image/png, but audio is expected here');
    expect(finish.body.msg).toContain(OBJECT_STORAGE_MESSAGES.uploadRemoved);
    expect(await exists(incomingKey(policy.reqId))).toBe(false);
    expect(await t.database.db.selectFrom('media').select('id').execute()).toEqual(before);
    // Nothing is left to finish.
    const again = await call('/api/file/v1/policy_upload_finish', { reqId: policy.reqId });
    expect({ status: again.status, msg: again.body.msg }).toEqual({ status: 409, msg: TASK_MESSAGES.uploadMissing });
  });

  it('refuses text dressed as audio', async () => {
    const { policy, finish } = await sendAndFinish(
      'audio',
      Buffer.from('just some text, not audio at all'),
      'audio/wav',
    );
    expect(finish.status).toBe(415);
    expect(finish.body.msg).toContain('not a recognised media file');
    expect(await exists(incomingKey(policy.reqId))).toBe(false);
  });

  it('refuses a file over the size cap (a bucket that does not enforce the policy let it in) and one over the length cap', async () => {
    const big = await sendAndFinish(
      'audio',
      Buffer.concat([silentWav(1, 8000), Buffer.alloc(UPLOAD_LIMITS.audio.maxBytes)]),
      'audio/wav',
    );
    expect(big.finish.status).toBe(413);
    expect(big.finish.body.msg).toContain(`at most ${UPLOAD_LIMITS.audio.maxBytes / MB} MB`);
    expect(await exists(incomingKey(big.policy.reqId))).toBe(false);
    const long = await sendAndFinish('audio', silentWav(301, 8000), 'audio/wav');
    expect(long.finish.status).toBe(413);
    expect(long.finish.body.msg).toContain('300 seconds');
    expect(await exists(incomingKey(long.policy.reqId))).toBe(false);
  });

  it('answers 409 while nothing was sent, 404 for an unknown policy or one of another account', async () => {
    const policy = (await call<Policy>('/api/file/v1/get_policy', { scene: 'audio' })).body.data;
    const missing = await call('/api/file/v1/policy_upload_finish', { reqId: policy.reqId });
    expect({ status: missing.status, msg: missing.body.msg }).toEqual({
      status: 409,
      msg: TASK_MESSAGES.uploadMissing,
    });
    const unknown = await call('/api/file/v1/policy_upload_finish', { reqId: 'f0e1d2c3-0000-4000-8000-000000000000' });
    expect({ status: unknown.status, msg: unknown.body.msg }).toEqual({
      status: 404,
      msg: TASK_MESSAGES.uploadPolicyUnknown,
    });
    const other = await createUser(t, 0);
    const theirs = await call(
      '/api/file/v1/policy_upload_finish',
      { reqId: policy.reqId },
      { authorization: `Bearer ${other.apiKey}` },
    );
    expect(theirs.status).toBe(404);
  });
});

describe('the playground with S3 configured', () => {
  it('offers the same policy under its session and finishes to the media it shows', async () => {
    const session = { token: user.token };
    const policy = (await call<Policy | null>('/api-playground/file/v1/get_policy', { scene: 'image' }, session)).body
      .data!;
    expect(policy.host).toBe(`${s3.endpoint}/${s3.bucket}`);
    expect(await post(policy, PNG, 'image/png')).toBe(204);
    const finish = await call<MediaInfo>(
      '/api-playground/file/v1/policy_upload_finish',
      { reqId: policy.reqId },
      session,
    );
    expect(finish.status).toBe(200);
    expect(finish.body.data).toMatchObject({ kind: 'image', mime: 'image/png', size: PNG.length });
  });
});

describe('policies past their time', () => {
  it('are swept with any file sent and never finished', async () => {
    const policy = (await call<Policy>('/api/file/v1/get_policy', { scene: 'audio' })).body.data;
    await bucket.send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: incomingKey(policy.reqId), Body: silentWav(1, 8000) }),
    );
    const now = Date.now() + DIRECT_UPLOADS.formTtlS * 1000 + DIRECT_UPLOADS.sweepAfterMs + 1000;
    await t.system.media.cleanup(now);
    expect(await exists(incomingKey(policy.reqId))).toBe(false);
    expect(
      await t.database.db.selectFrom('upload_policies').select('req_id').where('req_id', '=', policy.reqId).execute(),
    ).toEqual([]);
  });
});

describe('without S3', () => {
  it('keeps uploads to this server: the playground hears there is no policy, the API hands out its own form', async () => {
    const local = await createTasksTestApp();
    try {
      const someone = await createUser(local, 0);
      const res = await local.app.request('/api-playground/file/v1/get_policy', {
        method: 'POST',
        headers: { 'content-type': 'application/json', token: someone.token },
        body: JSON.stringify({ scene: 'audio' }),
      });
      expect(((await res.json()) as { data: unknown }).data).toBeNull();
      const api = await local.app.request('/api/file/v1/get_policy', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${someone.apiKey}` },
        body: JSON.stringify({ scene: 'audio' }),
      });
      const policy = ((await api.json()) as { data: Policy }).data;
      expect(policy.host).toBe('http://localhost:8787/api/file/v1/upload');
      expect(Object.keys(policy.fields).sort()).toEqual(['reqId', 'signature']);
    } finally {
      await local.close();
    }
  });
});
