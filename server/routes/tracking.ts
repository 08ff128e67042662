// The tracking collector (SPEC.md §7 tracking calls, §8 tracking codes): token, config, encrypted batches, errors, monitoring, each within its budgets.
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import { TRACKING_CODES } from '../../src/lib/spec/constants';
import { TRACKING_ERROR_CODES, TRACKING_LIMITS, TRACKING_PATHS, TRACKING_TOKEN } from '../../src/lib/spec/tracking';
import type { AppDeps } from '../deps';
import { AppError, envelope } from '../http/errors';
import { describeIssue } from '../http/input';
import { clientBudgetKey } from '../http/rate-limit';
import { batchSignatureValid, CipherError, openBatch, signedText } from '../tracking/cipher';
import { accessTokenBody, entrySchema, messageBody, monitorBody, trackConfigBody, trackInfoBody, type WireEntry } from '../tracking/schemas';
import { collectorBudgets } from '../tracking/budgets';
import { trackingStore } from '../tracking/store';
import { batchKey, issueToken, sameHex, tokenSign, verifyToken } from '../tracking/token';
import { lazyServerKeys } from '../accounts';
import { bodyCap } from './body-cap';
import { createHash } from 'node:crypto';

const fail = (status: 400 | 401 | 403 | 413 | 415, code: number, message: string) => new AppError(status, code, message);

const invalid = (message: string) => fail(400, TRACKING_ERROR_CODES.invalidInput, message);

function capped(maxSize: number) {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw fail(413, TRACKING_ERROR_CODES.payloadTooLarge, `Request body is too large: the limit is ${maxSize} bytes`);
    },
  });
}

/**
 * Reads a collector body. JSON and text/plain both carry JSON text: text/plain is what a page-leave beacon can send
 * without a CORS preflight (docs/tracking-protocol.md). Form bodies are accepted for SPEC.md §7's "default body is form-encoded".
 */
async function readCollectorBody(c: Context): Promise<Record<string, unknown>> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const raw = await c.req.text();
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(raw));
  if (type !== '' && type !== 'application/json' && type !== 'text/plain' && !type.endsWith('+json')) {
    throw fail(415, TRACKING_ERROR_CODES.unsupportedMediaType, 'Send the body as application/json, text/plain (JSON text) or application/x-www-form-urlencoded');
  }
  if (raw.trim() === '') throw invalid('body: must not be empty');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalid('body: is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid('body: must be a JSON object');
  return parsed as Record<string, unknown>;
}

async function validCollectorBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const result = schema.safeParse(await readCollectorBody(c));
  if (!result.success) throw invalid(describeIssue(result.error));
  return result.data;
}

/** Where app.ts mounts the collector: every path of TRACKING_PATHS lies under it. */
export const TRACKING_PREFIX = '/spider/api/v1';

/** A TRACKING_PATHS path relative to TRACKING_PREFIX. */
function local(path: string): string {
  if (!path.startsWith(`${TRACKING_PREFIX}/`)) throw new Error(`tracking path ${path} is not under ${TRACKING_PREFIX}`);
  return path.slice(TRACKING_PREFIX.length);
}

export function trackingRoutes({ config, database }: AppDeps) {
  const app = new Hono();
  // The general cap first, as on every area; each call's own cap below applies as well.
  app.use('*', bodyCap(config.bodyLimitBytes));
  const store = trackingStore(database, config.tracking.appKeys);
  // Calls without a token are counted per device and per address, batches per token's device (docs/tracking-protocol.md "Limits").
  const budgets = collectorBudgets();
  const keys = lazyServerKeys(config);
  const secret = () => config.tracking.secret ?? keys().tracking.toString('hex');
  const small = capped(TRACKING_LIMITS.smallBodyMaxBytes);
  const ok = (c: Context, data: unknown = null) => c.json(envelope(TRACKING_CODES.ok, 'ok', data));

  const requireKey = async (appKey: string) => {
    if (!(await store.appKeyRegistered(appKey))) {
      throw fail(403, TRACKING_CODES.appKeyError, appKey === '' ? 'appKey: must not be empty' : 'appKey: is not registered with this collector');
    }
  };

  /** A token this server signed, unexpired, whose key is still registered; else 40002 (or 40001 for a revoked key). */
  const requireToken = async (token: string) => {
    const claims = verifyToken(secret(), token, Date.now());
    if (!claims) throw fail(401, TRACKING_CODES.tokenFailure, 'token: is expired, altered or was not issued by this collector; fetch a new one');
    await requireKey(claims.k);
    return claims;
  };

  app.post(local(TRACKING_PATHS.accessToken), small, async (c) => {
    const body = await validCollectorBody(c, accessTokenBody);
    await requireKey(body.appKey);
    const now = Date.now();
    await budgets.accessToken.admit({ ip: clientBudgetKey(c, config.trustProxy), appKey: body.appKey, deviceId: body.deviceId }, now);
    const { token, claims } = issueToken(secret(), body.appKey, body.deviceId, now);
    return ok(c, { token, produceId: claims.p, sign: tokenSign(secret(), token), configVersion: TRACKING_TOKEN.configVersion, expiresAt: claims.exp });
  });

  app.post(local(TRACKING_PATHS.trackConfig), small, async (c) => {
    const body = await validCollectorBody(c, trackConfigBody);
    await requireToken(body.token);
    // A sign that does not belong to the token means the pair did not come from access_token: start over (40002).
    if (!sameHex(tokenSign(secret(), body.token), body.sign.toLowerCase())) {
      throw fail(401, TRACKING_CODES.tokenFailure, 'sign: does not belong to this token; fetch a new token');
    }
    return ok(c, { ak: batchKey(secret(), body.token), batchSize: config.tracking.batchSize, bufferS: config.tracking.bufferS });
  });

  app.post(local(TRACKING_PATHS.trackInfo), capped(TRACKING_LIMITS.batchBodyMaxBytes), async (c) => {
    const body = await validCollectorBody(c, trackInfoBody);
    const claims = await requireToken(body.token);
    const receivedAt = Date.now();
    await budgets.trackInfo.admit({ ip: clientBudgetKey(c, config.trustProxy), appKey: claims.k, deviceId: claims.d }, receivedAt);
    if (body.produceId !== claims.p) throw fail(403, TRACKING_ERROR_CODES.signMismatch, 'produceId: does not belong to this token');
    const ak = batchKey(secret(), body.token);
    // Encrypt-then-MAC: the sign covers the ciphertext, so a tampered batch is refused before it is decrypted.
    if (!batchSignatureValid(signedText(body), ak, body.sign)) {
      throw fail(403, TRACKING_ERROR_CODES.signMismatch, 'sign: does not match the batch (altered in transit, or not signed with this token\'s key)');
    }
    let plain: string;
    try {
      plain = openBatch(body.msgEncrypt, ak);
    } catch (error) {
      if (error instanceof CipherError) throw fail(400, TRACKING_ERROR_CODES.cipherError, error.message);
      throw error;
    }
    const entries = parseEntries(plain, body.batchCount);
    const result = await store.storeBatch(entries, {
      appKey: claims.k,
      produceId: claims.p,
      deviceId: claims.d,
      queueId: body.queueId,
      receivedAt,
    });
    return ok(c, result);
  });

  app.post(local(TRACKING_PATHS.message), small, async (c) => {
    const body = await validCollectorBody(c, messageBody);
    await requireKey(body.appKey);
    const expected = createHash('sha256').update(`${body.appKey}\n${body.deviceId}\n${body.message}`).digest('hex');
    if (!sameHex(expected, body.sign.toLowerCase())) throw fail(403, TRACKING_ERROR_CODES.signMismatch, 'sign: does not match appKey, deviceId and message');
    // Anyone may call this without a token: budgets per device and per address (429, Retry-After), and a capped table.
    const receivedAt = Date.now();
    await budgets.message.admit({ ip: clientBudgetKey(c, config.trustProxy), appKey: body.appKey, deviceId: body.deviceId }, receivedAt);
    await store.storeMessage({ ...body, receivedAt });
    return ok(c);
  });

  app.post(local(TRACKING_PATHS.monitor), small, async (c) => {
    const body = await validCollectorBody(c, monitorBody);
    await requireKey(body.appKey);
    const receivedAt = Date.now();
    await budgets.monitor.admit({ ip: clientBudgetKey(c, config.trustProxy), appKey: body.appKey, deviceId: body.deviceId }, receivedAt);
    await store.storeMonitor({ ...body, receivedAt });
    return ok(c);
  });

  return app;
}

/** Every entry valid, and as many as batchCount says, or nothing is stored (no partial batches). */
function parseEntries(plain: string, batchCount: number): WireEntry[] {
  let list: unknown;
  try {
    list = JSON.parse(plain);
  } catch {
    throw fail(400, TRACKING_ERROR_CODES.cipherError, 'msgEncrypt: decrypts to something that is not JSON');
  }
  if (!Array.isArray(list)) throw fail(400, TRACKING_ERROR_CODES.invalidEntry, 'entries: the batch must be a JSON array of entries');
  if (list.length !== batchCount) throw fail(400, TRACKING_ERROR_CODES.invalidEntry, `batchCount: says ${batchCount} but the batch holds ${list.length}`);
  return list.map((item, index) => {
    const result = entrySchema.safeParse(item);
    if (!result.success) throw fail(400, TRACKING_ERROR_CODES.invalidEntry, `entries[${index}].${describeIssue(result.error)}; nothing from this batch was stored`);
    return result.data;
  });
}
