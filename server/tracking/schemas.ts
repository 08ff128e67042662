// zod schemas of every collector body (SPEC.md §7; caps from src/lib/product-rules/tracking.ts); a decrypted entry is
// checked in ./entries.
import { z } from 'zod';
import { TRACKING_LIMITS } from '../../src/lib/product-rules';

const text = (max: number = TRACKING_LIMITS.fieldMaxLength) => z.string().max(max, `must be at most ${max} characters`);
const required = (max: number = TRACKING_LIMITS.fieldMaxLength) => text(max).min(1, 'must not be empty');

/** SPEC.md §7: access_token keys are snake_case; camelCase is accepted too so either client spelling works. */
export const accessTokenBody = z
  .object({
    app_key: z.string().optional(),
    appKey: z.string().optional(),
    device_id: text().optional(),
    deviceId: text().optional(),
    app_version: text().optional(),
    appVersion: text().optional(),
    platform: text().optional(),
    platform_version: text().optional(),
    platformVersion: text().optional(),
    log_version: text().optional(),
    logVersion: text().optional(),
  })
  .transform((b) => ({
    appKey: b.app_key ?? b.appKey ?? '',
    deviceId: b.device_id ?? b.deviceId ?? '',
  }));

export const trackConfigBody = z.object({ token: required(1024), sign: required(128) });

/** The track_info body is shared with the client that builds it (src/lib/api-contract/tracking-wire.ts). */
export { trackInfoBody } from '../../src/lib/api-contract/tracking-wire';

export const messageBody = z.object({
  deviceId: text().default(''),
  appKey: z.string().default(''),
  sign: z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters'),
  appVersion: text().default(''),
  platform: text().default(''),
  platformVersion: text().default(''),
  message: required(TRACKING_LIMITS.messageMaxLength),
});

export const monitorBody = z.object({
  appKey: z.string().default(''),
  deviceId: text().default(''),
  kind: z.enum(['perf', 'error']),
  name: required(64),
  value: z.number().optional(),
  rating: text(32).optional(),
  page: text(1024).default(''),
  message: text(TRACKING_LIMITS.messageMaxLength).optional(),
});
