// Builds §3 log entries on the main thread: seqId that wraps, foid/ffid chaining, unique entry ids.
import { SEQ_ID_WRAP } from '../product-rules';
import type { TrackEntry } from './types';

/** Random lowercase hex from the platform CSPRNG (works in insecure contexts, unlike randomUUID). */
export function randomHex(bytes: number): string {
  const buf = crypto.getRandomValues(new Uint8Array(bytes));
  let out = '';
  for (const b of buf) out += b.toString(16).padStart(2, '0');
  return out;
}

/** SPEC.md §9 "seqId wraps after 10000": 1, 2, … 10000, 1, … */
export function nextSeqId(previous: number): number {
  return (previous % SEQ_ID_WRAP) + 1;
}

export interface EntryParts {
  oid: string;
  action: number;
  logmap: Record<string, unknown>;
  uid: string;
}

/**
 * One per page load: returns the page load's entry maker, which holds the cold start id, the sequence and foid/ffid.
 * An entry id is the cold start id (64 random bits) and a count that never wraps: unique across page loads and tabs
 * without drawing random bits per entry, which costs far more in a browser than the rest of report().
 */
export function createEntryFactory(now: () => number = Date.now) {
  const coldStartId = randomHex(8);
  let count = 0;
  let seq = 0;
  let foid = '';
  let ffid = '';
  return (parts: EntryParts): TrackEntry => {
    seq = nextSeqId(seq);
    ffid ||= parts.oid;
    const entry: TrackEntry = {
      entryId: `${coldStartId}-${++count}`,
      coldStartId,
      seqId: seq,
      uid: parts.uid,
      time: now(),
      oid: parts.oid,
      action: parts.action,
      foid,
      ffid,
      logmap: parts.logmap,
    };
    foid = parts.oid;
    return entry;
  };
}
