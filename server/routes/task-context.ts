// What the task routes share: reading a multipart upload, and the uploads' own body cap (set on the upload route itself).
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { whileReading } from '../http/cut-off';
import { AppError } from '../http/errors';
import { ERROR_CODES, UPLOAD_LIMITS } from '../../src/lib/spec';

/** The largest upload of any kind, plus room for the multipart framing and form fields. */
export const MAX_UPLOAD_BODY = Math.max(...Object.values(UPLOAD_LIMITS).map((l) => l.maxBytes)) + 64 * 1024;

export function uploadBodyLimit(): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: MAX_UPLOAD_BODY,
    onError: () => {
      throw new AppError(413, ERROR_CODES.payloadTooLarge, `file: uploads may be at most ${Math.round(MAX_UPLOAD_BODY / (1024 * 1024))} MB`);
    },
  });
  // A chunked upload is read here, before the route: a client that leaves midway is refused, not a server error.
  return (c, next) => whileReading(c, () => limit(c, next));
}

/** Reads the uploaded file field of a multipart body, refusing anything that is not a file. */
export async function uploadedFile(c: Context, field = 'file'): Promise<{ bytes: Uint8Array; form: Record<string, unknown> }> {
  const type = c.req.header('content-type') ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    throw new AppError(415, ERROR_CODES.unsupportedMediaType, 'Send the upload as multipart/form-data with the file in the "file" field');
  }
  let form: Record<string, unknown>;
  try {
    form = (await whileReading(c, () => c.req.parseBody({ all: false }))) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(400, ERROR_CODES.invalidInput, 'Request body is not valid multipart/form-data');
  }
  const file = form[field];
  if (!(file instanceof File)) throw new AppError(400, ERROR_CODES.invalidInput, `${field}: attach the file in the "${field}" field`);
  return { bytes: new Uint8Array(await file.arrayBuffer()), form };
}
