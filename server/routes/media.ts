// GET /media/<id>.<ext>?exp&sig[&download=name]: serves stored media behind expiring signed URLs (or redirects to
// object storage).
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import type { AppDeps } from './deps';
import { signedLinkParams } from '../media';
import { AppError } from '../http/errors';
import { ERROR_CODES, TASK_MESSAGES } from '../../src/lib/product-rules';
import { bodyCap } from './body-cap';
import { requestedRange } from '../http/byte-range';

/** Download names are ours (feature-date.ext); anything else is ignored, so no header can be injected. */
const DOWNLOAD_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export function mediaRoutes(deps: AppDeps) {
  const system = deps.tasks;
  const app = new Hono();
  app.use('*', bodyCap(deps.config.bodyLimitBytes));
  app.get('/:file', async (c) => {
    const id = /^([A-Za-z0-9]{1,64})(\.[a-z0-9]+)?$/.exec(c.req.param('file'))?.[1];
    // ?download=<name> asks for a file to save under that name (e.g. speech-2025-01-31.wav) instead of the id.
    const name = c.req.query('download');
    const filename = name && DOWNLOAD_NAME.test(name) ? name : undefined;
    const found = id
      ? await system.media.download(
          id,
          signedLinkParams((name) => c.req.query(name)),
          undefined,
          filename,
        )
      : null;
    if (!found) throw new AppError(403, ERROR_CODES.forbidden, TASK_MESSAGES.mediaExpired);
    if ('redirect' in found) {
      // Object storage serves the bytes; the link is minted per request (no-store) so it never outlives our signed URL.
      c.header('Cache-Control', 'private, no-store');
      return c.redirect(found.redirect, 302);
    }
    const headers: Record<string, string> = {
      'Content-Type': found.row.mime,
      'Cache-Control': 'private, max-age=3600',
      // The signed URL is the capability; media may be embedded by the site (audio/video elements).
      'Cross-Origin-Resource-Policy': 'cross-origin',
      ...(filename ? { 'Content-Disposition': `attachment; filename="${filename}"` } : {}),
    };
    if ('data' in found)
      return c.body(new Uint8Array(found.data), 200, { ...headers, 'Content-Length': String(found.data.length) });
    // Streamed from disk, never loaded whole; a player seeking in a video asks for a range.
    const size = found.row.size;
    const range = requestedRange(c.req.header('range'), size);
    if (range === 'unsatisfiable') return c.body(null, 416, { ...headers, 'Content-Range': `bytes */${size}` });
    const stream = await found.stream(range ?? undefined);
    if (!stream) throw new AppError(403, ERROR_CODES.forbidden, TASK_MESSAGES.mediaExpired);
    const body = Readable.toWeb(stream) as ReadableStream<Uint8Array>;
    if (!range) return c.body(body, 200, { ...headers, 'Accept-Ranges': 'bytes', 'Content-Length': String(size) });
    return c.body(body, 206, {
      ...headers,
      'Accept-Ranges': 'bytes',
      'Content-Length': String(range.end - range.start + 1),
      'Content-Range': `bytes ${range.start}-${range.end}/${size}`,
    });
  });
  return app;
}
