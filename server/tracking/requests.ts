// Reads and validates collector request bodies (SPEC.md §7 tracking calls): media types, size caps, zod schemas, sealed
// batches.
import type { Context } from 'hono';
import type { z } from 'zod';
import { ERROR_MESSAGES, TRACKING_ERROR_CODES } from '../../src/lib/product-rules';
import { cappedBody } from '../http/capped-body';
import { whileReading } from '../http/cut-off';
import { AppError } from '../http/errors';
import { describeIssue, validate } from '../http/input';
import { CipherError, openBatch, type BatchKey } from './cipher';
import { checkEntry, EntryProblem, type WireEntry } from './entries';

/** A collector refusal with its HTTP status and SPEC.md §8 tracking code. */
export const collectorError = (status: 400 | 401 | 403 | 413 | 415, code: number, message: string) =>
  new AppError(status, code, message);

const invalid = (message: string) => collectorError(400, TRACKING_ERROR_CODES.invalidInput, message);

/**
 * One collector call's own body cap (docs/tracking-protocol.md "Limits"), answered with the tracking 413 code. A stated
 * Content-Length decides it, so the body is then read straight from the socket rather than through a web stream.
 */
export function collectorBodyCap(maxSize: number) {
  return cappedBody(maxSize, () => {
    throw collectorError(
      413,
      TRACKING_ERROR_CODES.payloadTooLarge,
      `Request body is too large: the limit is ${maxSize} bytes`,
    );
  });
}

/**
 * Reads a collector body. JSON and text/plain both carry JSON text: text/plain is what a page-leave beacon can send
 * without a CORS preflight (docs/tracking-protocol.md). Form bodies are accepted for SPEC.md §7's "default body is
 * form-encoded".
 */
async function readCollectorBody(c: Context): Promise<Record<string, unknown>> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const raw = await whileReading(
    c,
    () => c.req.text(),
    () => invalid(`body: ${ERROR_MESSAGES.bodyCutOff}`),
  );
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(raw));
  if (type !== '' && type !== 'application/json' && type !== 'text/plain' && !type.endsWith('+json')) {
    throw collectorError(
      415,
      TRACKING_ERROR_CODES.unsupportedMediaType,
      'Send the body as application/json, text/plain (JSON text) or application/x-www-form-urlencoded',
    );
  }
  if (raw.trim() === '') throw invalid('body: must not be empty');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalid('body: is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw invalid('body: must be a JSON object');
  return parsed as Record<string, unknown>;
}

/** The body read and checked against one of the schemas of ./schemas, or 40000 naming the first bad field. */
export async function collectorBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const raw = await readCollectorBody(c);
  const result = validate(schema, raw);
  if (!result.success) throw invalid(describeIssue(result.error, raw));
  return result.data;
}

/**
 * The entries of a batch whose sign was already checked: decrypted with ak, every one valid, as many as batchCount
 * says.
 */
export function sealedEntries(msgEncrypt: string, ak: BatchKey, batchCount: number): WireEntry[] {
  let plain: string;
  try {
    plain = openBatch(msgEncrypt, ak);
  } catch (error) {
    if (error instanceof CipherError) throw collectorError(400, TRACKING_ERROR_CODES.cipherError, error.message);
    throw error;
  }
  return parseEntries(plain, batchCount);
}

/** Every entry valid, and as many as batchCount says, or nothing is stored (no partial batches). */
function parseEntries(plain: string, batchCount: number): WireEntry[] {
  let list: unknown;
  try {
    list = JSON.parse(plain);
  } catch {
    throw collectorError(400, TRACKING_ERROR_CODES.cipherError, 'msgEncrypt: decrypts to something that is not JSON');
  }
  if (!Array.isArray(list))
    throw collectorError(400, TRACKING_ERROR_CODES.invalidEntry, 'entries: the batch must be a JSON array of entries');
  if (list.length !== batchCount)
    throw collectorError(
      400,
      TRACKING_ERROR_CODES.invalidEntry,
      `batchCount: says ${batchCount} but the batch holds ${list.length}`,
    );
  const entries: WireEntry[] = new Array(list.length);
  for (let index = 0; index < list.length; index++) {
    try {
      entries[index] = checkEntry(list[index]);
    } catch (error) {
      if (!(error instanceof EntryProblem)) throw error;
      throw collectorError(
        400,
        TRACKING_ERROR_CODES.invalidEntry,
        `entries[${index}].${error.message}; nothing from this batch was stored`,
      );
    }
  }
  return entries;
}
