// The S3 media store against a real S3-protocol server (s3rver): round trips, parts for large bodies, presigned links,
// outages.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { AppError } from '../http/errors';
import { ERROR_CODES, OBJECT_STORAGE } from '../../src/lib/product-rules';
import { startTestS3, type TestS3 } from '../test-support/s3';
import { s3MediaStore } from './s3-store';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(() => s3.close());

function storeFor(
  env: Record<string, string>,
  o: { singlePutMaxBytes?: number; partBytes?: number; partConcurrency?: number } = {},
) {
  const config = loadConfig(env).s3;
  if (!config) throw new Error('S3 settings were not picked up');
  return s3MediaStore({ s3: config, ...o });
}

/** The S3 operations the store's client sends, in order (observed on the real client, nothing replaced). */
function recordCommands(client: S3Client, onCommand?: (name: string) => Promise<void>): string[] {
  const seen: string[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      seen.push(context.commandName ?? '?');
      await onCommand?.(context.commandName ?? '?');
      return next(args);
    },
    { step: 'initialize' },
  );
  return seen;
}

describe('S3 media store', () => {
  it('puts, gets and deletes an object under the configured prefix; a missing key reads as null and deletes quietly', async () => {
    const store = storeFor(s3.env('media/'));
    const bytes = randomBytes(1000);
    await store.put('abc123.wav', bytes);
    expect(Buffer.compare((await store.get('abc123.wav'))!, bytes)).toBe(0);
    // The object sits under the prefix, where another tool or instance finds it.
    const head = await store.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: 'media/abc123.wav' }));
    expect(head.ContentLength).toBe(1000);
    await store.delete('abc123.wav');
    expect(await store.get('abc123.wav')).toBeNull();
    await expect(store.delete('abc123.wav')).resolves.toBeUndefined();
    await expect(store.delete('never-stored.wav')).resolves.toBeUndefined();
  });

  it('sends a 12 MB body in parts and reads it back byte for byte; a small body in one request', async () => {
    const store = storeFor(s3.env());
    const seen = recordCommands(store.client);
    const big = randomBytes(12 * 1024 * 1024);
    await store.put('bigfile.mp4', big);
    expect(seen).toEqual([
      'CreateMultipartUploadCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'CompleteMultipartUploadCommand',
    ]);
    expect(Buffer.compare((await store.get('bigfile.mp4'))!, big)).toBe(0);
    seen.length = 0;
    await store.put('small.wav', randomBytes(OBJECT_STORAGE.singlePutMaxBytes));
    expect(seen).toEqual(['PutObjectCommand']);
    await store.delete('bigfile.mp4');
    await store.delete('small.wav');
  });

  it('streams a file in parts from disk, a bounded number at once, and the object is the file byte for byte', async () => {
    const store = storeFor(s3.env(), {
      singlePutMaxBytes: 5 * 1024 * 1024,
      partBytes: 5 * 1024 * 1024,
      partConcurrency: 2,
    });
    let inFlight = 0;
    let most = 0;
    store.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName !== 'UploadPartCommand') return next(args);
        most = Math.max(most, ++inFlight);
        try {
          return await next(args);
        } finally {
          inFlight -= 1;
        }
      },
      { step: 'initialize' },
    );
    const dir = mkdtempSync(path.join(tmpdir(), 's3-parts-'));
    try {
      const file = path.join(dir, 'upload');
      const bytes = randomBytes(23 * 1024 * 1024);
      writeFileSync(file, bytes);
      await store.putFile('partsfile.mp4', file, bytes.length);
      // Five parts, two at a time: more than one at once, never more than the bound.
      expect(most).toBe(2);
      expect(Buffer.compare((await store.get('partsfile.mp4'))!, bytes)).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses keys that are not ours before any request', async () => {
    const store = storeFor(s3.env());
    await expect(store.put('../escape', new Uint8Array([1]))).rejects.toThrow('invalid media key');
    await expect(store.get('a/b.wav')).rejects.toThrow('invalid media key');
  });

  it('hands out a presigned link that serves the bytes with the given type and file name, for the given lifetime', async () => {
    const store = storeFor(s3.env('links'));
    const bytes = randomBytes(2048);
    await store.put('linked01.mp3', bytes);
    const url = new URL(await store.downloadUrl!('linked01.mp3', 'audio/mpeg', 'linked01.mp3', 90));
    expect(url.origin).toBe(s3.endpoint);
    expect(url.pathname).toBe(`/${s3.bucket}/links/linked01.mp3`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('90');
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="linked01.mp3"');
    expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), bytes)).toBe(0);
  });

  it('when storage goes away mid-upload, the upload is aborted and the caller hears 503 with a message', async () => {
    const own = await startTestS3('outage-bucket');
    // One part at a time, so the outage falls between two known parts.
    const store = storeFor(own.env(), {
      singlePutMaxBytes: 5 * 1024 * 1024,
      partBytes: 5 * 1024 * 1024,
      partConcurrency: 1,
    });
    let closed = false;
    const seen = recordCommands(store.client, async (name) => {
      // The outage starts after the first part arrived.
      if (name === 'UploadPartCommand' && seen.filter((n) => n === name).length === 2 && !closed) {
        closed = true;
        await own.close();
      }
    });
    const failure = await store.put('outage01.mp4', randomBytes(11 * 1024 * 1024)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ status: 503, code: ERROR_CODES.unavailable });
    expect(seen).toEqual([
      'CreateMultipartUploadCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'AbortMultipartUploadCommand',
    ]);
  });

  it('reads an unreachable storage server as 503 (not as a missing file)', async () => {
    const own = await startTestS3('gone-bucket');
    const store = storeFor(own.env());
    await own.close();
    await expect(store.get('whatever.wav')).rejects.toMatchObject({ status: 503, code: ERROR_CODES.unavailable });
  });

  it('signs with the SDK default credential chain when no key pair is configured', async () => {
    const env = s3.env();
    delete env.S3_ACCESS_KEY_ID;
    delete env.S3_SECRET_ACCESS_KEY;
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
    process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
    try {
      const store = storeFor(env);
      await store.put('chain001.wav', new Uint8Array([9, 8, 7]));
      const answer = await store.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: 'chain001.wav' }));
      expect([...(await answer.Body!.transformToByteArray())]).toEqual([9, 8, 7]);
    } finally {
      for (const [name, value] of [
        ['AWS_ACCESS_KEY_ID', saved.id],
        ['AWS_SECRET_ACCESS_KEY', saved.secret],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
