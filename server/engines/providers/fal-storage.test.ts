// fal storage as fal's client uploads: ?storage_type=fal-cdn-v3 on rest.fal.ai, one PUT up to 90 MB, multipart above
// (parts streamed from a file).
import { createHash } from 'node:crypto';
import { createReadStream, openAsBlob, writeSync, openSync, closeSync, ftruncateSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAL_STORAGE, PROVIDER_URLS } from '../../../src/lib/product-rules';
import { falUpload } from './fal-storage';
import { useFalFake } from './fal.fixtures';

const fal = useFalFake();

/**
 * A sparse file just over the multipart threshold, with a marker at the start of each part so their order shows in the
 * hash.
 */
function sparseFile(size: number): string {
  const file = path.join(fal.media.dir, 'big.mp4');
  const fd = openSync(file, 'w');
  ftruncateSync(fd, size);
  for (let at = 0; at < size; at += FAL_STORAGE.partBytes)
    writeSync(fd, Buffer.from(`part at ${at}`), 0, undefined, at);
  closeSync(fd);
  return file;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

describe('fal storage', { timeout: 60_000 }, () => {
  it('defaults to fal REST host, where fal-js uploads', () => {
    expect(PROVIDER_URLS.falStorage).toBe('https://rest.fal.ai');
  });

  it('a file up to 90 MB: initiate with storage_type=fal-cdn-v3, then one PUT of the bytes to the upload URL', async () => {
    const data = Buffer.from('a small clip');
    const url = await falUpload(
      fal.falConfig(),
      { data, mime: 'video/mp4', name: 'clip.mp4' },
      AbortSignal.timeout(10_000),
    );
    const initiate = fal.fake.calls.find((c) => c.path === '/storage/upload/initiate')!;
    expect(initiate.query).toBe('?storage_type=fal-cdn-v3');
    expect(initiate.auth).toBe('Key test-key');
    expect(JSON.parse(initiate.body)).toEqual({ content_type: 'video/mp4', file_name: 'clip.mp4' });
    expect(fal.fake.calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
    expect(fal.uploaded(url)).toEqual(data);
  });

  it('a file above 90 MB goes multipart: 10 MB parts PUT in order with the signed query kept, then complete with their etags', async () => {
    const size = FAL_STORAGE.multipartAboveBytes + 5 * 1024 * 1024 + 7;
    const file = sparseFile(size);
    const url = await falUpload(
      fal.falConfig(),
      { data: await openAsBlob(file), mime: 'video/mp4', name: 'big.mp4' },
      AbortSignal.timeout(50_000),
    );

    const initiate = fal.fake.calls.find((c) => c.path === '/storage/upload/initiate-multipart')!;
    expect(initiate.query).toBe('?storage_type=fal-cdn-v3');
    expect(fal.fake.calls.some((c) => c.path === '/storage/upload/initiate')).toBe(false);
    const [id, upload] = [...fal.fake.multipart][0]!;
    expect(url).toBe(`${fal.fake.url}/files/${id}`);
    expect(upload.initiate).toEqual({ content_type: 'video/mp4', file_name: 'big.mp4' });
    const partCount = Math.ceil(size / FAL_STORAGE.partBytes);
    expect(upload.parts.map((p) => p.partNumber)).toEqual(Array.from({ length: partCount }, (_, i) => i + 1));
    expect(upload.parts.slice(0, -1).every((p) => p.bytes === FAL_STORAGE.partBytes)).toBe(true);
    expect(upload.parts.reduce((sum, p) => sum + p.bytes, 0)).toBe(size);
    expect(upload.parts.every((p) => p.query === `?signature=s-${id}`)).toBe(true);
    expect(upload.completed).toEqual(
      upload.parts.map((p) => ({ partNumber: p.partNumber, etag: `etag-${p.partNumber}` })),
    );
    // The bytes arrived whole and in order.
    expect(upload.sha256.digest('hex')).toBe(await sha256Of(file));
  });
});
