// What the upload routes share: the uploads' own caps (size, and how many at once), and receiving a file to disk.
import path from 'node:path';
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { clientIp, type ProxyTrust } from '../http/client-ip';
import { requestCutOff } from '../http/cut-off';
import { AppError } from '../http/errors';
import { receiveUploadStream } from '../http/upload-stream';
import type { UploadGate } from '../media';
import { withWorkDir } from '../tools';
import { ERROR_CODES, ERROR_MESSAGES, UPLOAD_LIMITS } from '../../src/lib/product-rules';

/** The largest upload of any kind. */
const MAX_UPLOAD_FILE = Math.max(...Object.values(UPLOAD_LIMITS).map((l) => l.maxBytes));
/** That file plus room for the multipart framing and form fields. */
export const MAX_UPLOAD_BODY = MAX_UPLOAD_FILE + 64 * 1024;
const TOO_LARGE = `file: uploads may be at most ${Math.round(MAX_UPLOAD_BODY / (1024 * 1024))} MB`;

export interface ReceivedFile {
  /** The file as received, in a scratch folder removed when the handler returns (stores move or stream it away). */
  file: string;
  size: number;
  fields: Record<string, string>;
}

export interface UploadOptions {
  gate: UploadGate;
  trustProxy: ProxyTrust;
  /** The account the upload counts against, when the request itself says (a session); else `authorize` names it. */
  account?: string;
  /** Checks the form's fields before the file is read (a policy upload's signature) and names the account. */
  authorize?: (fields: Record<string, string>) => Promise<string>;
}

/**
 * The Node request when the body is still unread (the real server); else the web Request's body read chunk by chunk
 * (app.request() in tests, whose Request may come from another implementation, such as happy-dom's).
 */
function bodyStream(c: Context): Readable {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming && !incoming.readableDidRead) return incoming;
  const body = c.req.raw.body;
  if (!body) return Readable.from([]);
  const reader = body.getReader();
  return Readable.from(
    (async function* () {
      for (let part = await reader.read(); !part.done; part = await reader.read()) yield Buffer.from(part.value);
    })(),
  );
}

/**
 * Receives a multipart upload's "file" field into a scratch file while the caps are counted, runs `handle` on it,
 * and removes the scratch file whatever happens (refusal, client cut-off, failure; a crash leaves it to the next
 * start, which empties DATA_DIR/tmp). Nothing holds the upload in memory. Before a byte is read: a body announced
 * larger than any upload is refused with 413, and one over the in-flight caps with 429 and Retry-After.
 */
export async function receiveUpload(
  c: Context,
  o: UploadOptions,
  handle: (upload: ReceivedFile) => Promise<Response>,
): Promise<Response> {
  const stated = c.req.header('content-length');
  const statedBytes = stated !== undefined && /^\d+$/.test(stated) ? Number(stated) : null;
  if (statedBytes !== null && statedBytes > MAX_UPLOAD_BODY)
    throw new AppError(413, ERROR_CODES.payloadTooLarge, TOO_LARGE);
  const type = c.req.header('content-type') ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    throw new AppError(
      415,
      ERROR_CODES.unsupportedMediaType,
      'Send the upload as multipart/form-data with the file in the "file" field',
    );
  }
  const pass = o.gate.enter(clientIp(c, o.trustProxy), statedBytes ?? MAX_UPLOAD_BODY);
  try {
    if (o.account) pass.claimAccount(o.account);
    return await withWorkDir('upload-', async (dir) => {
      const file = path.join(dir, 'upload');
      const received = await receiveUploadStream(bodyStream(c), {
        // The parser needs the type and its boundary alone (named in lower case, whatever Headers implementation made
        // it).
        headers: { 'content-type': type },
        target: file,
        field: 'file',
        maxFileBytes: MAX_UPLOAD_FILE,
        maxBodyBytes: MAX_UPLOAD_BODY,
        tooLarge: TOO_LARGE,
        authorize: o.authorize && (async (fields) => pass.claimAccount(await o.authorize!(fields))),
      });
      return handle({ file, ...received });
    });
  } catch (error) {
    // The client left before its body was whole: whatever the parser made of that, it is a cut-off, not a server error.
    if (requestCutOff(c)) throw new AppError(400, ERROR_CODES.invalidInput, ERROR_MESSAGES.bodyCutOff);
    throw error;
  } finally {
    pass.release();
  }
}
