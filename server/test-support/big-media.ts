// Test and bench only: a real MP4 of a chosen size (a short clip and a padding box), and a process's peak memory.
import { createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { ffmpegOutput } from './lavfi-media';

/**
 * Writes `bytes` of valid MP4 to `target`: two seconds of video with its index first, then a `free` box (which
 * players and ffprobe skip) filling the rest. Written in 1 MB steps, so a 100 MB file costs no memory here.
 */
export async function paddedMp4(target: string, bytes: number): Promise<void> {
  const clip = await ffmpegOutput('clip.mp4', [
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=160x120:rate=10:duration=2',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
  ]);
  const padding = bytes - clip.byteLength;
  if (padding < 8) throw new Error(`a padded MP4 needs more than ${clip.byteLength + 8} bytes`);
  await writeFile(target, clip);
  const out = createWriteStream(target, { flags: 'a' });
  const header = Buffer.alloc(8);
  header.writeUInt32BE(padding, 0);
  header.write('free', 4, 'latin1');
  out.write(header);
  const step = Buffer.alloc(1024 * 1024);
  for (let left = padding - 8; left > 0; left -= step.byteLength) {
    if (!out.write(left >= step.byteLength ? step : step.subarray(0, left))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** A process's resident memory now and at its peak (Linux /proc), in bytes. */
export async function processMemory(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'latin1');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Starts a new peak-memory measure: the kernel sets the process's peak (VmHWM) back to its current size. */
export async function resetPeakMemory(pid: number): Promise<void> {
  await writeFile(`/proc/${pid}/clear_refs`, '5');
}
