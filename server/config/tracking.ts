// Environment variables of the tracking collector (TRACKING_*; docs/tracking-protocol.md; merged into the server
// configuration in index.ts): registered app keys, token secret, the batch timing track_config hands out, retention.
import { z } from 'zod';
import { TRACKING, TRACKING_BROWSER, TRACKING_LIMITS, TRACKING_RETENTION } from '../../src/lib/product-rules';
import { csv } from './lists';

export const trackingEnvShape = {
  TRACKING_APP_KEYS: csv.optional(),
  TRACKING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  TRACKING_BATCH_SIZE: z.coerce.number().int().min(1).max(TRACKING_LIMITS.batchMaxEntries).default(TRACKING.batchSize),
  TRACKING_BUFFER_S: z.coerce
    .number()
    .min(TRACKING_LIMITS.minBufferS)
    .max(TRACKING_LIMITS.maxBufferS)
    .default(TRACKING.bufferMs / 1000),
  /** Days tracking events are kept (docs/scaling.md "Tracking on PostgreSQL"). */
  TRACKING_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(TRACKING_RETENTION.maxDays)
    .default(TRACKING_RETENTION.defaultDays),
};

export interface TrackingConfig {
  /** App keys the collector accepts besides those registered with the CLI. */
  appKeys: string[];
  /** Signs tokens and derives batch keys (TRACKING_SECRET); null: derived from the server secret (SECRET_KEY). */
  secret: string | null;
  /** What track_config hands out (SPEC.md §7 batchSize, bufferS). */
  batchSize: number;
  bufferS: number;
  /** Days events are kept (TRACKING_RETENTION_DAYS); the tracking chore removes older ones. */
  retentionDays: number;
}

type TrackingEnv = z.infer<z.ZodObject<typeof trackingEnvShape>>;

export function trackingConfig(e: TrackingEnv): TrackingConfig {
  return {
    appKeys: e.TRACKING_APP_KEYS ?? [TRACKING_BROWSER.defaultAppKey],
    // Unset: derived from SECRET_KEY (or DATA_DIR/secret.key), so tokens survive restarts and agree across instances.
    secret: e.TRACKING_SECRET ?? null,
    batchSize: e.TRACKING_BATCH_SIZE,
    bufferS: e.TRACKING_BUFFER_S,
    retentionDays: e.TRACKING_RETENTION_DAYS,
  };
}
