// policy_upload_finish of a file sent straight to the bucket (real s3rver): the bytes checked, the file moved to a key
// of its own, and each refusal removing what was sent.
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, OBJECT_STORAGE_MESSAGES, TASK_MESSAGES, UPLOAD_LIMITS } from '../../src/lib/product-rules';
import { createUser } from '../test-support/tasks';
import { ffmpegOutput } from '../test-support/lavfi-media';
import { silentWav } from '../test-support/wav';
import { MB, PNG, useDirectUploadS3, type Policy } from './upload-direct-s3.fixtures';

const { ctx, prefix, call, exists, incomingKey, sendAndFinish } = useDirectUploadS3();

describe('policy_upload_finish of a file sent straight to the bucket', () => {
  it('checks a good file, copies it to a key of its own with its proved type, and answers a URL serving it; again answers the same', async () => {
    const wav = silentWav(2, 8000);
    const { policy, finish } = await sendAndFinish('audio', wav, 'audio/wav');
    expect(finish.status).toBe(200);
    expect(finish.body.data).toMatchObject({ mime: 'audio/wav', size: wav.length });
    expect(finish.body.data.durationS).toBeCloseTo(2, 1);
    const row = (await ctx.t.system.media.byId(finish.body.data.fileId))!;
    const stored = await ctx.bucket.send(
      new HeadObjectCommand({ Bucket: ctx.s3.bucket, Key: `${prefix}${row.storage_key}` }),
    );
    expect(stored.ContentType).toBe('audio/wav');
    // The incoming copy is gone: the policy's form cannot swap the checked file any more.
    expect(await exists(incomingKey(policy.reqId))).toBe(false);
    const served = await ctx.t.app.request(
      new URL(finish.body.data.url).pathname + new URL(finish.body.data.url).search,
    );
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
    const mp3 = await ffmpegOutput('tagged.mp3', [
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=2',
      '-metadata',
      `comment=${'a'.repeat(100_000)}`,
    ]);
    expect(mp3.subarray(0, 3).toString()).toBe('ID3');
    const { finish } = await sendAndFinish('audio', mp3, 'audio/mpeg');
    expect(finish.status).toBe(200);
    expect(finish.body.data.mime).toBe('audio/mpeg');
    expect(finish.body.data.durationS).toBeCloseTo(2, 0);
  });

  it('refuses a file of the wrong type, removes it and records nothing', async () => {
    const before = await ctx.t.database.db.selectFrom('media').select('id').execute();
    // The bucket was told image/… is audio: only the bytes count.
    const { policy, finish } = await sendAndFinish('audio', PNG, 'audio/wav');
    expect(finish.status).toBe(415);
    expect(finish.body.code).toBe(ERROR_CODES.unsupportedMediaType);
    expect(finish.body.msg).toContain('this is image/png, but audio is expected here');
    expect(finish.body.msg).toContain(OBJECT_STORAGE_MESSAGES.uploadRemoved);
    expect(await exists(incomingKey(policy.reqId))).toBe(false);
    expect(await ctx.t.database.db.selectFrom('media').select('id').execute()).toEqual(before);
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
    const other = await createUser(ctx.t, 0);
    const theirs = await call(
      '/api/file/v1/policy_upload_finish',
      { reqId: policy.reqId },
      { authorization: `Bearer ${other.apiKey}` },
    );
    expect(theirs.status).toBe(404);
  });
});
