// The tracking collector (SPEC.md §7 tracking calls, §8 tracking codes): token, config, encrypted batches, errors,
// monitoring, each within its budgets.
import { Hono, type Context } from 'hono';
import { TRACKING_CODES, TRACKING_ERROR_CODES, TRACKING_LIMITS, TRACKING_PATHS } from '../../src/lib/product-rules';
import type { AppDeps } from './deps';
import { envelope } from '../http/errors';
import { clientBudgetKey } from '../http/rate-limit';
import { messageSignatureValid } from '../tracking/cipher';
import { collectorBody, collectorBodyCap, collectorError as fail } from '../tracking/requests';
import { batchIngester } from '../tracking/ingest-pool';
import { accessTokenBody, messageBody, monitorBody, trackConfigBody, trackInfoBody } from '../tracking/schemas';
import { collectorBudgets, type BudgetLimiter, type Sender } from '../tracking/budgets';
import { trackingStore } from '../tracking/store';
import { accessTokenAnswer, batchKey, sameHex, tokenSign, verifyToken } from '../tracking/token';
import { verifiedTokens } from '../tracking/verified-tokens';
import { lazyServerKeys } from '../accounts';
import { bodyCap } from './body-cap';
import { countStoredBatch } from '../metrics';

/** Where app.ts mounts the collector: every path of TRACKING_PATHS lies under it. */
export const TRACKING_PREFIX = '/spider/api/v1';

const TOKEN_FAILURE = 'token: is expired, altered or was not issued by this collector; fetch a new one';

/** A TRACKING_PATHS path relative to TRACKING_PREFIX. */
function local(path: string): string {
  if (!path.startsWith(`${TRACKING_PREFIX}/`)) throw new Error(`tracking path ${path} is not under ${TRACKING_PREFIX}`);
  return path.slice(TRACKING_PREFIX.length);
}

export function trackingRoutes({ config, database, rateLimits }: AppDeps) {
  const app = new Hono();
  // The general cap first, as on every area; each call's own cap below applies as well.
  app.use('*', bodyCap(config.bodyLimitBytes));
  const store = trackingStore(database, config.tracking.appKeys);
  // Calls without a token are counted per device and per address, batches per token's device (docs/tracking-protocol.md
  // "Limits").
  const budgets = collectorBudgets(rateLimits?.store('tracking'));
  const keys = lazyServerKeys(config);
  const secret = () => config.tracking.secret ?? keys().tracking.toString('hex');
  const sessions = verifiedTokens(secret);
  const ingest = batchIngester(database, store);
  const small = collectorBodyCap(TRACKING_LIMITS.smallBodyMaxBytes);
  const ok = (c: Context, data: unknown = null) => c.json(envelope(TRACKING_CODES.ok, 'ok', data));

  const requireKey = async (appKey: string) => {
    if (!(await store.appKeyRegistered(appKey))) {
      throw fail(
        403,
        TRACKING_CODES.appKeyError,
        appKey === '' ? 'appKey: must not be empty' : 'appKey: is not registered with this collector',
      );
    }
  };

  /** Counts the call in `budget` for the device and key it names and the address it comes from; 429 when over. */
  const admit = (budget: BudgetLimiter, c: Context, { appKey, deviceId }: Omit<Sender, 'ip'>, now: number) =>
    budget.admit({ ip: clientBudgetKey(c, config.trustProxy), appKey, deviceId }, now);

  /** A token this server signed, unexpired, whose key is still registered; else 40002 (or 40001 for a revoked key). */
  const requireToken = async (token: string) => {
    const claims = verifyToken(secret(), token, Date.now());
    if (!claims) throw fail(401, TRACKING_CODES.tokenFailure, TOKEN_FAILURE);
    await requireKey(claims.k);
    return claims;
  };

  app.post(local(TRACKING_PATHS.accessToken), small, async (c) => {
    const body = await collectorBody(c, accessTokenBody);
    await requireKey(body.appKey);
    const now = Date.now();
    await admit(budgets.accessToken, c, body, now);
    return ok(c, accessTokenAnswer(secret(), body.appKey, body.deviceId, now));
  });

  app.post(local(TRACKING_PATHS.trackConfig), small, async (c) => {
    const body = await collectorBody(c, trackConfigBody);
    await requireToken(body.token);
    // A sign that does not belong to the token means the pair did not come from access_token: start over (40002).
    if (!sameHex(tokenSign(secret(), body.token), body.sign.toLowerCase())) {
      throw fail(401, TRACKING_CODES.tokenFailure, 'sign: does not belong to this token; fetch a new token');
    }
    return ok(c, {
      ak: batchKey(secret(), body.token),
      batchSize: config.tracking.batchSize,
      bufferS: config.tracking.bufferS,
    });
  });

  app.post(local(TRACKING_PATHS.trackInfo), collectorBodyCap(TRACKING_LIMITS.batchBodyMaxBytes), async (c) => {
    const body = await collectorBody(c, trackInfoBody);
    const receivedAt = Date.now();
    // The token's check and its batch key are remembered per token: a device sends many batches under one.
    const session = sessions.open(body.token, receivedAt);
    if (!session) throw fail(401, TRACKING_CODES.tokenFailure, TOKEN_FAILURE);
    const { claims } = session;
    await requireKey(claims.k);
    await admit(budgets.trackInfo, c, { appKey: claims.k, deviceId: claims.d }, receivedAt);
    if (body.produceId !== claims.p)
      throw fail(403, TRACKING_ERROR_CODES.signMismatch, 'produceId: does not belong to this token');
    // Sign, decrypt, entries and the insert: on an SQLite file in the ingest thread (../tracking/ingest-pool).
    const result = await ingest(
      { body, meta: { appKey: claims.k, produceId: claims.p, deviceId: claims.d, queueId: body.queueId, receivedAt } },
      session,
    );
    countStoredBatch(result);
    return ok(c, result);
  });

  app.post(local(TRACKING_PATHS.message), small, async (c) => {
    const body = await collectorBody(c, messageBody);
    await requireKey(body.appKey);
    if (!messageSignatureValid(body.appKey, body.deviceId, body.message, body.sign))
      throw fail(403, TRACKING_ERROR_CODES.signMismatch, 'sign: does not match appKey, deviceId and message');
    // Anyone may call this without a token: budgets per device and per address (429, Retry-After), and a capped table.
    const receivedAt = Date.now();
    await admit(budgets.message, c, body, receivedAt);
    await store.storeMessage({ ...body, receivedAt });
    return ok(c);
  });

  app.post(local(TRACKING_PATHS.monitor), small, async (c) => {
    const body = await collectorBody(c, monitorBody);
    await requireKey(body.appKey);
    const receivedAt = Date.now();
    await admit(budgets.monitor, c, body, receivedAt);
    await store.storeMonitor({ ...body, receivedAt });
    return ok(c);
  });

  return app;
}
