// Runs ffmpeg/ffprobe confined (local files only, CPU and memory limits), and reads media facts with them.
import path from 'node:path';
import { FFMPEG_LIMITS, FFMPEG_MEASURE_LIMITS } from '../../src/lib/product-rules';
import { confineArgs, ranOutOfMemory } from './confine';
import { spawnTied, type SpawnLimits } from './tied-spawn';

export { ffmpegTools, inspectFfmpeg, locateFfmpeg, parseFfmpegVersion, reportFfmpeg } from './ffmpeg-locate';
export type { FfmpegTools, FoundTool, LocateOptions } from './ffmpeg-locate';

/**
 * Runs ffmpeg or ffprobe to completion; rejects with the tail of stderr; kills it when the signal aborts. It is
 * spawned tied to the server (tied-spawn.ts), so it dies with it, under `limits` (CPU time, address space), and
 * every input it reads may open local files only (confine.ts). A run that ran out of memory is a failure even
 * when ffmpeg exits 0. With `onLine`, stdout is handed over line by line instead of being kept (a probe of a
 * hostile file may print a great deal).
 */
export function runTool(
  bin: string,
  args: string[],
  signal?: AbortSignal,
  onLine?: (line: string) => void,
  limits: SpawnLimits = FFMPEG_LIMITS,
): Promise<{ stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    const child = spawnTied(bin, confineArgs(args), limits);
    const out: Buffer[] = [];
    let partial = '';
    let err = '';
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (d: Buffer) => {
      if (!onLine) return void out.push(d);
      const lines = (partial + d.toString()).split('\n');
      partial = lines.pop()!;
      for (const line of lines) onLine(line);
    });
    child.stderr.on('data', (d: Buffer) => {
      // Only the end matters for the error message; keep memory bounded on long runs.
      err = (err + d.toString()).slice(-4000);
    });
    child.on('error', (e) => {
      signal?.removeEventListener('abort', onAbort);
      reject(e);
    });
    child.on('close', (code, killedBy) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      if (partial && onLine) onLine(partial);
      const tail = err.trim().split('\n').slice(-3).join(' | ');
      if (ranOutOfMemory(err)) reject(new Error(`${path.basename(bin)} ran out of its memory limit: ${tail}`));
      else if (killedBy)
        reject(
          new Error(
            `${path.basename(bin)} was killed by ${killedBy} (limits: ${limits.cpuSeconds} s of CPU, ${limits.addressSpaceBytes} bytes of address space): ${tail}`,
          ),
        );
      else if (code === 0) resolve({ stdout: Buffer.concat(out), stderr: err });
      else reject(new Error(`${path.basename(bin)} exited with ${code ?? killedBy}: ${tail}`));
    });
  });
}

export interface ProbeResult {
  formatName: string;
  /**
   * Seconds from the start to the end of the audio and video packets the demuxer actually reads: what a player
   * plays, whatever the header claims (an MP3's Xing frame count, an MP4's mvhd, a bitrate estimate). 0 when none.
   */
  durationS: number;
  /** The container's own statement of its length (ffprobe's format duration); null when it makes none. */
  headerDurationS: number | null;
  /** The first video stream that is not cover art (an attached picture in MP3/M4A tags is no video). */
  video: { codec: string; width: number; height: number; pixFmt: string } | null;
  audio: { codec: string } | null;
}

const PROBE_ENTRIES =
  'format=format_name,duration:stream=index,codec_type,codec_name,width,height,pix_fmt:stream_disposition=attached_pic:packet=stream_index,pts_time,duration_time';

/** key=value fields of one line of ffprobe's compact output ("packet|stream_index=0|pts_time=0.02|…"). */
function fields(line: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of line.split('|').slice(1)) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return out;
}

const seconds = (v: string | undefined) =>
  v === undefined || v === 'N/A' || v === '' ? null : Number.isFinite(Number(v)) ? Number(v) : null;

/**
 * Reads a media file's container and streams with ffprobe, and measures its length from every packet in it.
 * `format` forces the demuxer (the caller has recognised the bytes); only local files may be opened, so a
 * hostile file cannot make ffprobe fetch a URL or read another file (playlists, MOV data references).
 */
export async function probe(
  ffprobe: string,
  file: string,
  signal?: AbortSignal,
  format?: string,
): Promise<ProbeResult> {
  const spans = new Map<number, { start: number; end: number }>();
  const streams: Array<Record<string, string>> = [];
  let container: Record<string, string> = {};
  const args = [
    '-v',
    'error',
    '-protocol_whitelist',
    'file',
    ...(format ? ['-f', format] : []),
    '-of',
    'compact',
    '-show_entries',
    PROBE_ENTRIES,
    file,
  ];
  await runTool(
    ffprobe,
    args,
    signal,
    (line) => {
      const section = line.slice(0, line.indexOf('|'));
      const f = fields(line);
      if (section === 'packet') {
        const pts = seconds(f.pts_time);
        if (pts === null) return;
        const end = pts + (seconds(f.duration_time) ?? 0);
        const index = Number(f.stream_index);
        const span = spans.get(index);
        if (!span) spans.set(index, { start: pts, end });
        else {
          span.start = Math.min(span.start, pts);
          span.end = Math.max(span.end, end);
        }
      } else if (section === 'stream') streams.push(f);
      else if (section === 'format') container = f;
    },
    FFMPEG_MEASURE_LIMITS,
  );
  const media = streams.filter(
    (s) => (s.codec_type === 'audio' || s.codec_type === 'video') && s['disposition:attached_pic'] !== '1',
  );
  const v = media.find((s) => s.codec_type === 'video');
  const a = media.find((s) => s.codec_type === 'audio');
  const measured = media.map((s) => spans.get(Number(s.index))).filter((s) => s !== undefined);
  // Encoder priming (AAC, Opus pre-skip) sits before 0 and is never played.
  const durationS =
    measured.length > 0
      ? Math.max(...measured.map((s) => s.end)) - Math.max(0, Math.min(...measured.map((s) => s.start)))
      : 0;
  return {
    formatName: container.format_name ?? '',
    durationS: Math.max(0, Math.round(durationS * 1e6) / 1e6),
    headerDurationS: seconds(container.duration),
    video: v
      ? {
          codec: v.codec_name ?? '',
          width: Number(v.width ?? 0),
          height: Number(v.height ?? 0),
          pixFmt: v.pix_fmt ?? '',
        }
      : null,
    audio: a ? { codec: a.codec_name ?? '' } : null,
  };
}

/**
 * Seconds of sound the first audio stream decodes to: encoder delay and padding that the file marks (LAME's
 * gapless tag, MP4 edit lists, Opus pre-skip) are trimmed as a player trims them, so a 5.96 s MP3 is 5.96 s.
 */
export async function decodedAudioSeconds(
  ffmpeg: string,
  file: string,
  signal?: AbortSignal,
  format?: string,
): Promise<number> {
  let last = 0;
  const input = ['-protocol_whitelist', 'file', ...(format ? ['-f', format] : []), '-i', file];
  await runTool(
    ffmpeg,
    ['-v', 'error', '-nostdin', ...input, '-map', '0:a:0', '-f', 'null', '-progress', 'pipe:1', '-'],
    signal,
    (line) => {
      // out_time=HH:MM:SS.micro (its _ms/_us twins changed units between ffmpeg versions).
      const m = /^out_time=(-?)(\d+):(\d+):(\d+(?:\.\d+)?)$/.exec(line.trim());
      if (m && !m[1]) last = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4]);
    },
    FFMPEG_MEASURE_LIMITS,
  );
  return last;
}
