// The zod schema of one tracking log entry as it travels inside an encrypted batch (SPEC.md §3 plus a unique entryId):
// the page, worker and collector name its type from here (type-only where zod must not load), and the collector's
// fast check (server/tracking/entries.ts) is tested to agree with it.
import { z } from 'zod';
import { TRACKING, TRACKING_ACTIONS, TRACKING_LIMITS } from '../product-rules';

const FIELD_MAX = TRACKING_LIMITS.fieldMaxLength;
const actionCodes = new Set<number>(Object.values(TRACKING_ACTIONS));
const field = z.string().max(FIELD_MAX, `must be at most ${FIELD_MAX} characters`);
const required = field.min(1, 'must not be empty');
/** The limit is in UTF-8 bytes, as stored and sent: "é" is one UTF-16 unit of .length but two bytes. */
const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

export const trackEntry = z.object({
  /** Unique per entry across tabs and page loads; the collector drops an entry whose id it already holds. */
  entryId: required,
  /** Random id of the page load that produced the entry. */
  coldStartId: required,
  /** 1…10 000 per page load, then wraps (SPEC.md §9); not unique, hence entryId. */
  seqId: z.number().int().min(1).max(TRACKING.seqIdWrap),
  /** Signed-in user id, or '' for a guest. */
  uid: field,
  /** Epoch milliseconds when report() was called. */
  time: z.number().int().min(0),
  /** Event id (with the config's logPrefix applied). */
  oid: required,
  /** Numeric action code (TRACKING_ACTIONS). */
  action: z
    .number()
    .int()
    .refine((code) => actionCodes.has(code), 'must be a known action code (1–10)'),
  /** Previous event id of this page load, '' for the first. */
  foid: field,
  /** First-screen id: the first event id of this page load. */
  ffid: field,
  logmap: z
    .record(z.string(), z.unknown())
    .refine(
      (logmap) => utf8Bytes(JSON.stringify(logmap)) <= TRACKING_LIMITS.logmapMaxBytes,
      `must serialize to at most ${TRACKING_LIMITS.logmapMaxBytes} bytes`,
    ),
});
