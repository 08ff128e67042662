// Test-only: short real media files made from ffmpeg's test sources, for tests whose server must probe or play them.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
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
