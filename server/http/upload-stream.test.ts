// Receiving a multipart upload as a stream: the file lands on disk whole or not at all, fields are read, refusals say
// why.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { receiveUploadStream, type UploadStreamOptions } from './upload-stream';

const dir = mkdtempSync(path.join(tmpdir(), 'upload-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** A multipart body built by the platform's own FormData encoder, as a Node stream, with its headers. */
async function formBody(parts: Array<[string, string | Blob]>) {
  const form = new FormData();
  for (const [name, value] of parts) form.append(name, value);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return {
    headers: { 'content-type': request.headers.get('content-type')! },
    body: Buffer.from(await request.arrayBuffer()),
  };
}

function options(headers: Record<string, string>, extra: Partial<UploadStreamOptions> = {}): UploadStreamOptions {
  return {
    headers,
    target: path.join(dir, `file-${++n}`),
    field: 'file',
    maxFileBytes: 1024 * 1024,
    maxBodyBytes: 2 * 1024 * 1024,
    tooLarge: 'too large',
    ...extra,
  };
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('receiveUploadStream', () => {
  it('writes the file field to the target and keeps the text fields, whatever their order', async () => {
    const bytes = Buffer.alloc(300 * 1024, 5);
    const { headers, body } = await formBody([
      ['file', new Blob([bytes])],
      ['scene', 'video'],
    ]);
    const o = options(headers);
    const received = await receiveUploadStream(Readable.from([body]), o);
    expect(received).toEqual({ size: bytes.length, fields: { scene: 'video' } });
    expect(readFileSync(o.target).equals(bytes)).toBe(true);
  });

  it('skips other file fields unread', async () => {
    const { headers, body } = await formBody([
      ['other', new Blob([Buffer.alloc(10, 1)])],
      ['file', new Blob([Buffer.alloc(20, 2)])],
    ]);
    const o = options(headers);
    expect((await receiveUploadStream(Readable.from([body]), o)).size).toBe(20);
    expect(readFileSync(o.target).equals(Buffer.alloc(20, 2))).toBe(true);
  });

  it('refuses a file over the cap with 413 and leaves nothing behind', async () => {
    const { headers, body } = await formBody([['file', new Blob([Buffer.alloc(2048)])]]);
    const o = options(headers, { maxFileBytes: 1024 });
    const error = await refusal(receiveUploadStream(Readable.from([body]), o));
    expect([error.status, error.message]).toEqual([413, 'too large']);
    expect(existsSync(o.target)).toBe(false);
  });

  it('refuses a body over its cap even when the file is small', async () => {
    const { headers, body } = await formBody([
      ['pad', 'x'.repeat(3000)],
      ['file', new Blob([Buffer.alloc(10)])],
    ]);
    const error = await refusal(receiveUploadStream(Readable.from([body]), options(headers, { maxBodyBytes: 1024 })));
    expect(error.status).toBe(413);
  });

  it('asks authorize() with the fields sent before the file, and writes nothing when it refuses', async () => {
    const { headers, body } = await formBody([
      ['reqId', 'r-1'],
      ['file', new Blob([Buffer.alloc(64 * 1024)])],
    ]);
    const seen: Array<Record<string, string>> = [];
    const o = options(headers, {
      authorize: (fields) => {
        seen.push(fields);
        throw new AppError(403, 40003, 'forged');
      },
    });
    const error = await refusal(receiveUploadStream(Readable.from([body]), o));
    expect([error.status, seen]).toEqual([403, [{ reqId: 'r-1' }]]);
    expect(existsSync(o.target)).toBe(false);
  });

  it('says what is wrong with a body that is not a form with a file', async () => {
    const noFile = await formBody([['scene', 'video']]);
    expect((await refusal(receiveUploadStream(Readable.from([noFile.body]), options(noFile.headers)))).message).toBe(
      'file: attach the file in the "file" field',
    );
    const notForm = await refusal(
      receiveUploadStream(Readable.from([Buffer.from('{}')]), options({ 'content-type': 'application/json' })),
    );
    expect([notForm.status, notForm.message]).toEqual([400, 'Request body is not valid multipart/form-data']);
    const cutForm = await formBody([['file', new Blob([Buffer.alloc(1000)])]]);
    const cut = await refusal(
      receiveUploadStream(Readable.from([cutForm.body.subarray(0, 500)]), options(cutForm.headers)),
    );
    expect(cut.status).toBe(400);
  });

  it('passes on a failure of the body itself and removes the half-written file', async () => {
    const { headers, body } = await formBody([['file', new Blob([Buffer.alloc(200 * 1024)])]]);
    const o = options(headers);
    const failing = new Readable({ read() {} });
    failing.push(body.subarray(0, 100 * 1024));
    setTimeout(() => failing.destroy(new Error('connection reset')), 20);
    await expect(receiveUploadStream(failing, o)).rejects.toThrow('connection reset');
    expect(existsSync(o.target)).toBe(false);
  });
});
