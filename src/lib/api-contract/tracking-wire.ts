// Zod schemas of the collector protocol's bodies and answers the tracking client and the collector share
// (docs/tracking-protocol.md, SPEC.md §7): the app info, the token and config answers, the track_info body. The
// client names their types type-only (src/lib/tracking/types.ts), so no page or worker loads zod for them.
import { z } from 'zod';
import { TRACKING, TRACKING_LIMITS } from '../product-rules';

const required = (max: number = TRACKING_LIMITS.fieldMaxLength) =>
  z.string().max(max, `must be at most ${max} characters`).min(1, 'must not be empty');

/** SPEC.md §3 app info, sent with the token request and error messages. */
export const appInfo = z.object({
  appVersion: z.string(),
  deviceId: z.string(),
  platform: z.string(),
  platformVersion: z.string(),
});

/** The answer of access_token: the token, its producer id and the sign track_config asks for. */
export const tokenData = z.object({
  token: z.string(),
  produceId: z.string(),
  sign: z.string(),
  configVersion: z.string(),
  /** When the token stops being accepted (Unix milliseconds). */
  expiresAt: z.number(),
});

/** The answer of track_config: the batch key and how the client batches. */
export const configData = z.object({ ak: z.string(), batchSize: z.number(), bufferS: z.number() });

/** The body of POST track_info, also the text of one beacon (SPEC.md §7). */
export const trackInfoBody = z.object({
  msgEncrypt: required(TRACKING_LIMITS.batchBodyMaxBytes),
  token: required(1024),
  produceId: required(),
  queueId: z
    .string()
    .regex(new RegExp(`^[0-9]{${TRACKING.queueIdMinDigits},${TRACKING.queueIdMaxDigits}}$`), 'must be 9 or 10 digits'),
  sign: z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters'),
  sendTime: z.coerce.number().int().nonnegative(),
  batchCount: z.coerce
    .number()
    .int()
    .min(1)
    .max(TRACKING_LIMITS.batchMaxEntries, `must be at most ${TRACKING_LIMITS.batchMaxEntries}`),
});
