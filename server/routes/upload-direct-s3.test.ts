// Uploads straight to the bucket (real s3rver): get_policy's presigned POST, the playground's, the sweep of policies
// past their time, and uploads without S3; finish's checks are in upload-direct-s3-finish.test.ts.
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { DIRECT_UPLOADS, UPLOAD_LIMITS } from '../../src/lib/product-rules';
import type { MediaInfo } from '../../src/lib/api/types';
import { createTasksTestApp, createUser } from '../test-support/tasks';
import { silentWav } from '../test-support/wav';
import { PNG, policyConditions, post, useDirectUploadS3, type Policy } from './upload-direct-s3.fixtures';

const { ctx, call, exists, incomingKey } = useDirectUploadS3();

describe('get_policy with S3 configured', () => {
  it('hands out a presigned POST to the bucket, limited to the scene kind, its size cap and a short time, under the media prefix', async () => {
    const before = Date.now();
    const { status, body } = await call<Policy>('/api/file/v1/get_policy', { scene: 'audio' });
    expect(status).toBe(200);
    const policy = body.data;
    expect(policy.host).toBe(`${ctx.s3.endpoint}/${ctx.s3.bucket}`);
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

describe('the playground with S3 configured', () => {
  it('offers the same policy under its session and finishes to the media it shows', async () => {
    const session = { token: ctx.user.token };
    const policy = (await call<Policy | null>('/api-playground/file/v1/get_policy', { scene: 'image' }, session)).body
      .data!;
    expect(policy.host).toBe(`${ctx.s3.endpoint}/${ctx.s3.bucket}`);
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
    await ctx.bucket.send(
      new PutObjectCommand({ Bucket: ctx.s3.bucket, Key: incomingKey(policy.reqId), Body: silentWav(1, 8000) }),
    );
    const now = Date.now() + DIRECT_UPLOADS.formTtlS * 1000 + DIRECT_UPLOADS.sweepAfterMs + 1000;
    await ctx.t.system.media.cleanup(now);
    expect(await exists(incomingKey(policy.reqId))).toBe(false);
    expect(
      await ctx.t.database.db
        .selectFrom('upload_policies')
        .select('req_id')
        .where('req_id', '=', policy.reqId)
        .execute(),
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
