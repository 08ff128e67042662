// Large bodies read from disk or storage in bounded memory: their chunks count toward the upload minor GC
// (young-garbage.ts).
import { pipeline, Transform, type Readable } from 'node:stream';
import { noteReceivedBytes } from '../http/young-garbage';

/**
 * `source` as it reads, each chunk counted: every read makes a new buffer that only a collection frees, so 100 MB sent
 * on to a bucket (or fetched from one) would otherwise hold tens of megabytes of garbage at its peak. An error of the
 * source reaches the returned stream.
 */
export function collectedWhileRead(source: Readable): Readable {
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      noteReceivedBytes(chunk.length);
      done(null, chunk);
    },
  });
  pipeline(source, counted, () => undefined);
  return counted;
}
