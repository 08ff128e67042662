// Collector counters: batches and events accepted or duplicated, and every refused call by its reason.
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../http/errors';
import { TRACKING_CODES, TRACKING_ERROR_CODES, TRACKING_PATHS } from '../../src/lib/product-rules';
import { trackingBatches, trackingEvents, trackingRefusals } from './registry';

/** A refusal's reason is the name of its SPEC.md §8 tracking code (signMismatch, rateLimited, tokenFailure…). */
const REASONS = new Map<number, string>(
  [...Object.entries(TRACKING_ERROR_CODES), ...Object.entries(TRACKING_CODES)].map(([reason, code]) => [code, reason]),
);
const CALLS = new Map<string, string>(Object.entries(TRACKING_PATHS).map(([call, path]) => [path, call]));

/** A batch the collector stored: one accepted batch, its new events and the duplicates it skipped. */
export function countStoredBatch(result: { stored: number; duplicates: number }): void {
  trackingBatches.inc({ result: 'accepted' });
  if (result.stored > 0) trackingEvents.inc({ result: 'accepted' }, result.stored);
  if (result.duplicates > 0) trackingEvents.inc({ result: 'duplicate' }, result.duplicates);
}

function reasonOf(error: Error | undefined, status: number): string {
  if (error instanceof AppError) return REASONS.get(error.code) ?? `code${error.code}`;
  return status === 413 ? 'payloadTooLarge' : status >= 500 ? 'internal' : `status${status}`;
}

/**
 * Mounted on the collector's prefix: after the answer, a refusal is counted by call and reason (no work on success).
 */
export function collectorRefusals(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.status < 400) return;
    const call = CALLS.get(c.req.path) ?? 'other';
    trackingRefusals.inc({ call, reason: reasonOf(c.error, c.res.status) });
    if (call === 'trackInfo') trackingBatches.inc({ result: 'refused' });
  };
}
