// Checks one decrypted batch entry by hand (SPEC.md §3): the rules of its zod schema (src/lib/api-contract
// tracking-entry.ts; entries-schema.test.ts holds them equal), without a schema library's per-event cost.
import type { z } from 'zod';
import { TRACKING, TRACKING_ACTIONS, TRACKING_LIMITS } from '../../src/lib/product-rules';
import type { trackEntry } from '../../src/lib/api-contract/tracking-entry';

type TrackEntry = z.infer<typeof trackEntry>;

/** One valid entry: exactly the §3 fields (anything else the client sent is dropped), and its logmap as JSON text. */
export type WireEntry = TrackEntry & {
  /** JSON.stringify(logmap), computed once by the size check so storing does not serialize it again. */
  logmapJson?: string;
};

/** The first problem of an entry, as `field: message`, the way a refused field is named everywhere else. */
export class EntryProblem extends Error {
  override name = 'EntryProblem';
}

const actionCodes = new Set<number>(Object.values(TRACKING_ACTIONS));
const FIELD_MAX = TRACKING_LIMITS.fieldMaxLength;

function text(item: Record<string, unknown>, field: string, required: boolean): string {
  const value = item[field];
  if (typeof value !== 'string') throw new EntryProblem(`${field}: must be a string`);
  if (value.length > FIELD_MAX) throw new EntryProblem(`${field}: must be at most ${FIELD_MAX} characters`);
  if (required && value.length === 0) throw new EntryProblem(`${field}: must not be empty`);
  return value;
}

function integer(item: Record<string, unknown>, field: string, min: number, max: number): number {
  const value = item[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new EntryProblem(`${field}: must be an integer`);
  if (value < min) throw new EntryProblem(`${field}: must be at least ${min}`);
  if (value > max) throw new EntryProblem(`${field}: must be at most ${max}`);
  return value;
}

/** A plain object (what JSON.parse makes of `{…}`), not an array or null. */
function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The entry with exactly its §3 fields, or EntryProblem naming the first bad field. */
export function checkEntry(item: unknown): WireEntry {
  if (!isRecord(item)) throw new EntryProblem('entry: must be an object');
  const entryId = text(item, 'entryId', true);
  const coldStartId = text(item, 'coldStartId', true);
  const seqId = integer(item, 'seqId', 1, TRACKING.seqIdWrap);
  const uid = text(item, 'uid', false);
  const time = integer(item, 'time', 0, Number.MAX_SAFE_INTEGER);
  const oid = text(item, 'oid', true);
  const action = integer(item, 'action', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  if (!actionCodes.has(action)) throw new EntryProblem('action: must be a known action code (1–10)');
  const foid = text(item, 'foid', false);
  const ffid = text(item, 'ffid', false);
  const logmap = item.logmap;
  if (!isRecord(logmap)) throw new EntryProblem('logmap: must be an object');
  const logmapJson = JSON.stringify(logmap);
  // The limit is in UTF-8 bytes, as stored and sent: "é" is one UTF-16 unit of .length but two bytes.
  if (Buffer.byteLength(logmapJson, 'utf8') > TRACKING_LIMITS.logmapMaxBytes)
    throw new EntryProblem(`logmap: must serialize to at most ${TRACKING_LIMITS.logmapMaxBytes} bytes`);
  return { entryId, coldStartId, seqId, uid, time, oid, action, foid, ffid, logmap, logmapJson };
}
