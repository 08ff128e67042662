// The storage surface of the fal.ai fake (fal.fixtures.ts, which names the fal-js commit cited): upload initiation,
// single PUTs, streamed multipart parts and their completion, and the file URLs it hands out.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendFile, sendJson } from '../../test-support/provider-fakes';

/** One call as the fake saw it (a body cut to its first 2,000 characters). */
export interface FakeCall {
  method: string;
  path: string;
  query: string;
  auth: string | undefined;
  body: string;
}

/** A multipart upload as the fake saw it: bytes counted and hashed per part as they streamed in, never kept. */
export interface MultipartUpload {
  initiate: { content_type?: unknown; file_name?: unknown };
  parts: Array<{ partNumber: number; bytes: number; query: string }>;
  sha256: ReturnType<typeof createHash>;
  completed: Array<{ partNumber: number; etag: string }> | null;
}

/**
 * A multipart part, PUT to {upload_url}/{n} with the upload URL's query kept and answered {partNumber, etag}
 * (fal-js libs/client/src/storage.ts multipartUpload / partUploadRetries). Counted and hashed as it streams in, so a
 * 90 MB+ upload is never held by the fake.
 */
function receivePart(
  req: IncomingMessage,
  res: ServerResponse,
  upload: MultipartUpload,
  partNumber: number,
  query: string,
): void {
  let bytes = 0;
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    upload.sha256.update(chunk);
  });
  req.on('end', () => {
    upload.parts.push({ partNumber, bytes, query });
    sendJson(res, 200, { partNumber, etag: `etag-${partNumber}` });
  });
}

/** Paths a presigned URL authorises (fal storage's own), which take no key. */
export const isPresignedPath = (pathname: string) =>
  pathname.startsWith('/files/') || pathname.startsWith('/upload/') || pathname.startsWith('/multipart/');

/** The storage half of the fake; `files` are the media its file URLs serve. */
export function falStorageFake(files: Record<'clip' | 'longClip' | 'picture', string>, calls: FakeCall[]) {
  const { clip, longClip, picture } = files;
  let uploadSeq = 0;
  /** Bytes PUT to fal storage, by the upload id that ends the file URL it answered. */
  const uploads = new Map<string, Buffer>();
  /** Multipart uploads by the id that ends their file URL. */
  const multipart = new Map<string, MultipartUpload>();

  /**
   * A multipart part, handled before the body is read: it streams in uncounted by readBody. Whether it was one (and
   * so answered).
   */
  function part(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    const send = (status: number, value: unknown) => (sendJson(res, status, value), true);
    // The presigned upload URL's signature authorises a part, not our key.
    const match = req.method === 'PUT' ? /^\/multipart\/([^/]+)\/(\d+)$/.exec(url.pathname) : null;
    if (!match) return false;
    calls.push({ method: 'PUT', path: url.pathname, query: url.search, auth: req.headers.authorization, body: '' });
    const upload = multipart.get(match[1]!);
    if (!upload || url.searchParams.get('signature') !== `s-${match[1]}`)
      return send(403, { detail: 'bad upload signature' });
    receivePart(req, res, upload, Number(match[2]), url.search);
    return true;
  }

  /** Every other storage call, its body read; whether it was one (and so answered). */
  function handle(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer, base: string): boolean {
    const send = (status: number, value: unknown) => (sendJson(res, status, value), true);
    // fal-js initiates both kinds of upload on its REST host with ?storage_type=fal-cdn-v3 and {content_type,
    // file_name} (storage.ts initiateUpload / initiateMultipartUpload), answered {upload_url, file_url}.
    if (req.method === 'POST' && url.pathname === '/storage/upload/initiate') {
      const id = `u${uploadSeq++}`;
      return send(200, { upload_url: `${base}/upload/${id}`, file_url: `${base}/files/${id}` });
    }
    if (req.method === 'POST' && url.pathname === '/storage/upload/initiate-multipart') {
      const id = `m${uploadSeq++}`;
      multipart.set(id, {
        initiate: JSON.parse(body.toString() || '{}') as MultipartUpload['initiate'],
        parts: [],
        sha256: createHash('sha256'),
        completed: null,
      });
      return send(200, { upload_url: `${base}/multipart/${id}?signature=s-${id}`, file_url: `${base}/files/${id}` });
    }
    // POST {upload_url}/complete {parts: [{partNumber, etag}]} ends it (storage.ts multipartUpload): every part, in
    // order.
    const complete = req.method === 'POST' ? /^\/multipart\/([^/]+)\/complete$/.exec(url.pathname) : null;
    if (complete) {
      const upload = multipart.get(complete[1]!);
      if (!upload || url.searchParams.get('signature') !== `s-${complete[1]}`)
        return send(403, { detail: 'bad upload signature' });
      const parts =
        (JSON.parse(body.toString() || '{}') as { parts?: Array<{ partNumber: number; etag: string }> }).parts ?? [];
      const expected = upload.parts.map((p, i) => ({ partNumber: i + 1, etag: `etag-${i + 1}` }));
      if (JSON.stringify(parts) !== JSON.stringify(expected))
        return send(400, { detail: 'parts do not match the uploaded parts' });
      upload.completed = parts;
      return send(200, {});
    }
    if (req.method === 'PUT' && url.pathname.startsWith('/upload/')) {
      uploads.set(url.pathname.slice('/upload/'.length), body);
      return send(200, {});
    }
    if (req.method === 'GET' && url.pathname.startsWith('/files/')) {
      const name = url.pathname.slice('/files/'.length);
      const [type, file] = name.startsWith('img-')
        ? ['image/png', picture]
        : name === 'long.mp4'
          ? ['video/mp4', longClip]
          : ['video/mp4', clip];
      sendFile(res, file, type);
      return true;
    }
    return false;
  }

  return { uploads, multipart, part, handle };
}
