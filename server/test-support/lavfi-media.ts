// Test-only: short real media files made from ffmpeg's test sources, for tests whose server must probe or play them:
// bytes at once, or clips, tones and stills made in a temp dir before a file's tests and removed after them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { ffmpegTools, runTool, withWorkDir } from '../tools';

/** Makes `name` with the server's ffmpeg (`-v error`, then `args`) in a temporary dir and answers its bytes. */
export async function ffmpegOutput(name: string, args: string[]): Promise<Buffer> {
  const tools = ffmpegTools();
  if (!tools) throw new Error(`ffmpeg is needed to make ${name}`);
  return withWorkDir('lavfi-', async (dir) => {
    const file = path.join(dir, name);
    await runTool(tools.ffmpeg, ['-v', 'error', ...args, '-y', file]);
    return readFile(file);
  });
}

/** Writes a 2-second 320×240 H.264 MP4 of the test pattern to `file`, with the given ffmpeg. */
export function writeTestPatternMp4(ffmpeg: string, file: string): void {
  execFileSync(ffmpeg, [
    '-y',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x240:rate=15',
    '-t',
    '2',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    file,
  ]);
}

/** A file for `useTestMedia` to make: its name, and the ffmpeg arguments between `-v error` and `-y <file>`. */
export interface MediaSpec {
  name: string;
  args: string[];
}

/** An H.264 testsrc clip (320×240, 24 fps) of `seconds`; with `audio`, a sine AAC track as long. */
export function videoClip(name: string, seconds: number, o: { audio?: boolean } = {}): MediaSpec {
  const video = ['-f', 'lavfi', '-i', `testsrc=s=320x240:r=24:d=${seconds}`];
  if (!o.audio) return { name, args: [...video, '-pix_fmt', 'yuv420p', '-c:v', 'libx264'] };
  return {
    name,
    args: [
      ...video,
      '-f',
      'lavfi',
      '-i',
      `sine=d=${seconds}`,
      '-shortest',
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
      '-c:a',
      'aac',
    ],
  };
}

/** A mono sine tone of `seconds`: WAV, or a 128 kb/s MP3 when the name ends in .mp3; `sampleRate` when given. */
export function sineAudio(name: string, seconds: number, o: { sampleRate?: number } = {}): MediaSpec {
  const rate = o.sampleRate ? ['-ar', String(o.sampleRate)] : [];
  const codec = name.endsWith('.mp3') ? ['-c:a', 'libmp3lame', '-b:a', '128k'] : [];
  return { name, args: ['-f', 'lavfi', '-i', `sine=d=${seconds}`, '-ac', '1', ...rate, ...codec] };
}

/** One frame of a lavfi source as an image (by default a 64×64 test pattern; `color=c=white:s=64x64` makes a mask). */
export function stillImage(name: string, source = 'testsrc=s=64x64'): MediaSpec {
  return { name, args: ['-f', 'lavfi', '-i', source, '-frames:v', '1'] };
}

/**
 * A temp dir for the test file, with the given media made in it before its tests run and removed after them.
 * Answers each file's path by key at once (tables of cases may name them), and the dir (`dir`).
 */
export function useTestMedia<K extends string>(
  prefix: string,
  specs: Record<K, MediaSpec>,
): Record<K, string> & { dir: string } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const entries = Object.entries(specs) as Array<[K, MediaSpec]>;
  const paths = Object.fromEntries(entries.map(([key, spec]) => [key, path.join(dir, spec.name)])) as Record<K, string>;
  beforeAll(async () => {
    const ff = ffmpegTools()!.ffmpeg;
    for (const [key, spec] of entries) await runTool(ff, ['-v', 'error', ...spec.args, '-y', paths[key]]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return { ...paths, dir };
}
