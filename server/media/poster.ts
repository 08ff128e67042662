// Poster frames: one JPEG taken from a video result with ffmpeg, stored beside it so lists show a picture instead of a
// black tile.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { POSTERS } from '../../src/lib/product-rules';
import { ffmpegTools, runTool, withWorkDir, type FfmpegTools } from '../tools';

/** The demuxer of each stored video type, so ffmpeg reads the bytes as what they are and guesses nothing. */
const DEMUXERS: Record<string, string> = { 'video/mp4': 'mov', 'video/quicktime': 'mov', 'video/webm': 'matroska' };

/**
 * A JPEG of the frame POSTERS.atS into the video (halfway into a shorter one), POSTERS.width wide; null when this
 * server has no ffmpeg or the video has no frame to take. Never throws: a missing poster only costs the picture.
 */
export async function renderPoster(
  video: Uint8Array,
  mime: string,
  durationS: number | null,
  tools: () => FfmpegTools | null = ffmpegTools,
): Promise<Uint8Array | null> {
  const ffmpeg = tools()?.ffmpeg;
  const format = DEMUXERS[mime];
  if (!ffmpeg || !format) return null;
  const at = durationS !== null && durationS < POSTERS.atS * 2 ? durationS / 2 : POSTERS.atS;
  try {
    return await withWorkDir('poster-', async (dir) => {
      const input = path.join(dir, 'video');
      const output = path.join(dir, 'poster.jpg');
      await writeFile(input, video);
      const args = [
        '-v',
        'error',
        '-nostdin',
        '-protocol_whitelist',
        'file',
        '-f',
        format,
        '-i',
        input,
        '-frames:v',
        '1',
        '-vf',
        `scale=${POSTERS.width}:-2`,
        '-q:v',
        '4',
        '-f',
        'image2',
        '-c:v',
        'mjpeg',
        '-y',
        output,
      ];
      // Seeking past the last frame writes nothing: then the first frame is taken instead.
      await runTool(ffmpeg, ['-ss', at.toFixed(3), ...args], AbortSignal.timeout(POSTERS.timeoutMs)).catch(
        () => undefined,
      );
      const made = await readFile(output).catch(() => null);
      if (made && made.length > 0) return new Uint8Array(made);
      await runTool(ffmpeg, args, AbortSignal.timeout(POSTERS.timeoutMs));
      return new Uint8Array(await readFile(output));
    });
  } catch {
    return null;
  }
}
