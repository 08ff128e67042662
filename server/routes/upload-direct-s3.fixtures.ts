// Shared set-up of the direct-to-bucket upload tests: a real s3rver, an app and a user wired to it, and the calls a
// client and a browser make (get_policy, the form POST to the bucket, finish).
import { randomBytes } from 'node:crypto';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect } from 'vitest';
import { DIRECT_UPLOADS } from '../../src/lib/product-rules';
import { startTestS3, type TestS3 } from '../test-support/s3';
import { createTasksTestApp, createUser, type TasksTestApp, type TestUser } from '../test-support/tasks';

export const MB = 1024 * 1024;
/** A PNG signature and the IHDR chunk header that must follow it. */
export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from('IHDR'),
  Buffer.alloc(64),
]);

export interface Policy {
  reqId: string;
  host: string;
  expireAt: number;
  fields: Record<string, string>;
  accept: string[];
}
type Answer<T> = { status: number; body: { code: number; msg: string; data: T } };

/**
 * What a browser does with the policy: its fields, the file's own type, the file last; answers the storage's status.
 */
export async function post(policy: Policy, bytes: Uint8Array, type: string): Promise<number> {
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

export const policyConditions = (policy: Policy) =>
  JSON.parse(Buffer.from(policy.fields.Policy!, 'base64').toString()) as { conditions: unknown[]; expiration: string };

/**
 * The calling test file's s3rver, app with S3 configured (under a prefix of its own) and user with 10 credits, made
 * before its tests and closed after them; `ctx`'s fields are set once they are made.
 */
export function useDirectUploadS3() {
  const prefix = `run-${randomBytes(4).toString('hex')}/`;
  const ctx = {} as { s3: TestS3; t: TasksTestApp; user: TestUser; bucket: S3Client };
  beforeAll(async () => {
    ctx.s3 = await startTestS3();
    ctx.t = await createTasksTestApp({ env: ctx.s3.env(prefix) });
    ctx.user = await createUser(ctx.t, 10);
    ctx.bucket = new S3Client({
      endpoint: ctx.s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
  });
  afterAll(async () => {
    await ctx.t.close();
    ctx.bucket.destroy();
    await ctx.s3.close();
  });

  async function call<T>(
    path: string,
    body: object,
    auth: Record<string, string> = { authorization: `Bearer ${ctx.user.apiKey}` },
  ): Promise<Answer<T>> {
    const res = await ctx.t.app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Answer<T>['body'] };
  }

  async function exists(key: string): Promise<boolean> {
    try {
      await ctx.bucket.send(new HeadObjectCommand({ Bucket: ctx.s3.bucket, Key: key }));
      return true;
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
      throw error;
    }
  }
  const incomingKey = (reqId: string) => `${prefix}${DIRECT_UPLOADS.incomingFolder}${reqId}`;

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

  return { ctx, prefix, call, exists, incomingKey, sendAndFinish };
}
