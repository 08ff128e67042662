// Pure pieces of a tracking send: the wire form of an entry, the queueId and the beacon split.
import { TRACKING } from '../product-rules';
import type { QueuedEntry, TrackEntry } from './types';

/** SPEC.md §9 "Random queueId 9 to 10 digits": uniform over [10^8, 10^10). */
export function randomQueueId(random: () => number = Math.random): string {
  const min = 10 ** (TRACKING.queueIdMinDigits - 1);
  const max = 10 ** TRACKING.queueIdMaxDigits;
  return String(min + Math.floor(random() * (max - min)));
}

/** Drops the queue-only `tab` field so it never reaches the wire. */
export function wireEntry({ tab: _tab, ...entry }: QueuedEntry): TrackEntry {
  return entry;
}

/**
 * Seals entries into as few bodies as fit under maxBytes each: whole when it fits, else halves, recursively.
 * A single entry over the limit cannot happen (entries are capped far below it) and is sent alone.
 */
export function splitSealed<T>(
  entries: readonly T[],
  seal: (part: readonly T[]) => string,
  maxBytes: number,
): string[] {
  if (entries.length === 0) return [];
  const body = seal(entries);
  if (entries.length === 1 || new TextEncoder().encode(body).length <= maxBytes) return [body];
  const half = Math.ceil(entries.length / 2);
  return [...splitSealed(entries.slice(0, half), seal, maxBytes), ...splitSealed(entries.slice(half), seal, maxBytes)];
}
