// Frees the buffers a stream has passed on without waiting for V8's own timing: a minor GC every few megabytes
// received.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { UPLOAD_MEMORY } from '../../src/lib/product-rules';

type MinorGc = () => void;

let collect: MinorGc | null | undefined;

/**
 * The engine's collector, asked for a young-generation pass only. V8 exposes it behind a flag; setting the flag
 * at run time and reading `gc` from a fresh context is the documented way to reach it without a command-line flag.
 */
function minorGc(): MinorGc | null {
  if (collect !== undefined) return collect;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as (options: { type: 'minor'; execution: 'sync' }) => void;
    collect = () => gc({ type: 'minor', execution: 'sync' });
  } catch {
    collect = null;
  }
  return collect;
}

let sinceLast = 0;

/**
 * Counts bytes received into short-lived buffers (each socket read is a new one, freed only when the collector runs).
 * V8 collects them when their total passes its external-memory limit, tens of megabytes; an upload of 100 MB would
 * hold that much garbage at its peak. A young-generation pass every UPLOAD_MEMORY.collectEveryBytes keeps the peak
 * near that figure instead, whatever the number of uploads at once, for well under a millisecond each time.
 */
export function noteReceivedBytes(bytes: number): void {
  sinceLast += bytes;
  if (sinceLast < UPLOAD_MEMORY.collectEveryBytes) return;
  sinceLast = 0;
  minorGc()?.();
}
