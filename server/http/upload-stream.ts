// Receives a multipart upload as a stream: the file goes to a file on disk as it arrives, never whole into memory.
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { AppError } from './errors';
import { ERROR_CODES, UPLOAD_FORM } from '../../src/lib/product-rules';
import { PRIVATE_FILE_MODE } from '../private-files';
import { noteReceivedBytes } from './young-garbage';

export interface UploadStreamOptions {
  /** The request's headers (content-type with its boundary). */
  headers: IncomingHttpHeaders;
  /** Where the file field is written; removed again when receiving fails. */
  target: string;
  field: string;
  /** Largest file accepted; one byte more is refused with 413 and the rest of the body is not read. */
  maxFileBytes: number;
  /** Largest body, file and form framing together (a body of unstated length is counted as it arrives). */
  maxBodyBytes: number;
  /** Message of that 413. */
  tooLarge: string;
  /**
   * Called once with the fields sent so far, when the file starts (or at the end when it comes last): a policy
   * upload's signature is checked here, so a refused one is never read to its end.
   */
  authorize?: (fields: Record<string, string>) => Promise<void> | void;
}

export interface ReceivedUpload {
  size: number;
  fields: Record<string, string>;
}

const invalid = (message: string) => new AppError(400, ERROR_CODES.invalidInput, message);
const NOT_MULTIPART = 'Request body is not valid multipart/form-data';

/**
 * Streams `body` through a multipart parser: text fields are kept (few and small, UPLOAD_FORM), the `field` file is
 * written to `target` with backpressure, any other file is skipped unread. Memory stays at the parser's and the
 * file stream's buffers whatever the upload's size. A failure of the body itself (the client left) is thrown as is,
 * for the caller to tell apart from refusals, which are AppErrors.
 */
export async function receiveUploadStream(body: Readable, o: UploadStreamOptions): Promise<ReceivedUpload> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: o.headers,
      limits: {
        fileSize: o.maxFileBytes,
        fields: UPLOAD_FORM.maxFields,
        fieldSize: UPLOAD_FORM.maxFieldBytes,
        parts: UPLOAD_FORM.maxParts,
      },
    });
  } catch {
    throw invalid(NOT_MULTIPART);
  }
  const fields: Record<string, string> = {};
  let size = 0;
  let sawFile = false;
  let authorized = false;
  let received = 0;
  let failed = false;
  let out: WriteStream | null = null;
  /** The file field's write to disk; settled at once while no file has come. */
  let writing: Promise<void> = Promise.resolve();

  const authorize = async () => {
    if (authorized) return;
    authorized = true;
    await o.authorize?.({ ...fields });
  };

  const parsed = new Promise<void>((resolve, reject) => {
    const count = (chunk: Buffer) => {
      received += chunk.byteLength;
      noteReceivedBytes(chunk.byteLength);
      if (received > o.maxBodyBytes) tooLarge();
    };
    // A refusal stops the parse at once; whatever of the body is still unread is Node's to discard after the answer.
    const fail = (error: unknown) => {
      body.off('data', count);
      failed = true;
      body.unpipe(parser);
      // Ends the file's pipeline at once (the parser, cut from the body, would never finish it).
      out?.destroy();
      reject(error);
    };
    const tooLarge = () => fail(new AppError(413, ERROR_CODES.payloadTooLarge, o.tooLarge));
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated)
        return fail(invalid(`${name}: form fields may be at most ${UPLOAD_FORM.maxFieldBytes} bytes`));
      if (name !== o.field) fields[name] = value;
    });
    parser.on('file', (name, stream) => {
      if (name !== o.field || sawFile) {
        stream.resume();
        return;
      }
      sawFile = true;
      // Past the cap, busboy ends the file stream early and marks it; the rest of the body is not worth reading.
      stream.on('limit', tooLarge);
      // A form that ends mid-file errors this stream too, maybe before the pipeline below listens; the parser's own
      // error event reports it.
      stream.on('error', () => undefined);
      // The stream stays paused (holding the parser, and so the socket, back) until the form is authorised.
      writing = (async () => {
        await authorize();
        if (failed) return;
        const file = (out = createWriteStream(o.target, { mode: PRIVATE_FILE_MODE }));
        await pipeline(stream, file);
        size = file.bytesWritten;
      })();
      writing.catch(fail);
    });
    parser.on('partsLimit', () => fail(invalid(`the form may have at most ${UPLOAD_FORM.maxParts} parts`)));
    parser.on('fieldsLimit', () =>
      fail(invalid(`the form may have at most ${UPLOAD_FORM.maxFields} fields beside the file`)),
    );
    parser.on('error', () => fail(invalid(NOT_MULTIPART)));
    parser.on('close', resolve);
    body.on('error', fail);
    body.pipe(parser);
    body.on('data', count);
  });

  try {
    await parsed;
    await writing;
    if (!sawFile) throw invalid(`${o.field}: attach the file in the "${o.field}" field`);
    await authorize();
    return { size, fields };
  } catch (error) {
    // Nothing half-received is left behind: the caller only ever sees a complete file.
    await writing.catch(() => undefined);
    await rm(o.target, { force: true });
    throw error;
  }
}
