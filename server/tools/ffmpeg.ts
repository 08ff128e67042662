// Finds and runs ffmpeg/ffprobe: the binaries shipped in npm packages, else FFMPEG_PATH/FFPROBE_PATH, else PATH.
import { spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnTied } from './tied-spawn';

const require = createRequire(import.meta.url);

export interface FfmpegTools {
  ffmpeg: string;
  ffprobe: string | null;
  /** Where ffmpeg came from, for /healthz and logs. */
  source: 'npm' | 'env' | 'path';
  /** A TrueType font for drawtext, when the system has one (the npm build carries none). */
  font: string | null;
}

/**
 * `npm ci --ignore-scripts` skips the packages' chmod postinstall, so a shipped binary may lack its execute
 * bit: set it, or when the file is not ours to change, use an executable copy in the temp directory.
 */
function executable(file: string): string | null {
  if (!existsSync(file)) return null;
  try {
    accessSync(file, constants.X_OK);
    return file;
  } catch {
    /* not executable yet */
  }
  try {
    chmodSync(file, 0o755);
    return file;
  } catch {
    const dir = path.join(tmpdir(), 'dreamapi-bin');
    const copy = path.join(dir, `${path.basename(file)}-${statSync(file).size}`);
    try {
      mkdirSync(dir, { recursive: true });
      if (!existsSync(copy)) copyFileSync(file, copy);
      chmodSync(copy, 0o755);
      return copy;
    } catch {
      return null;
    }
  }
}

function fromPackage(pkg: string, bin: string): string | null {
  try {
    return executable(path.join(path.dirname(require.resolve(`${pkg}/package.json`)), bin));
  } catch {
    return null;
  }
}

function onPath(bin: string, envPath = process.env.PATH ?? ''): string | null {
  for (const dir of envPath.split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, bin);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      /* keep looking */
    }
  }
  return null;
}

/** Works by running it: a file that exists but cannot execute here (wrong platform) does not count. */
function runs(file: string): boolean {
  return spawnSync(file, ['-version'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
}

const FONT_CANDIDATES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
  '/usr/share/fonts/TTF/DejaVuSans.ttf',
  '/usr/share/fonts/dejavu/DejaVuSans.ttf',
  '/System/Library/Fonts/Supplemental/Arial.ttf',
];

export interface LocateOptions {
  env?: Record<string, string | undefined>;
  /** Tests turn the npm packages off to check the refusal. */
  usePackages?: boolean;
}

export function locateFfmpeg(o: LocateOptions = {}): FfmpegTools | null {
  const env = o.env ?? process.env;
  const candidates: Array<{ ffmpeg: string | null; ffprobe: string | null; source: FfmpegTools['source'] }> = [];
  if (o.usePackages !== false) {
    candidates.push({ ffmpeg: fromPackage('@ffmpeg-installer/linux-x64', 'ffmpeg'), ffprobe: fromPackage('@ffprobe-installer/linux-x64', 'ffprobe'), source: 'npm' });
  }
  if (env.FFMPEG_PATH) candidates.push({ ffmpeg: executable(env.FFMPEG_PATH), ffprobe: env.FFPROBE_PATH ? executable(env.FFPROBE_PATH) : null, source: 'env' });
  candidates.push({ ffmpeg: onPath('ffmpeg', env.PATH), ffprobe: onPath('ffprobe', env.PATH), source: 'path' });
  for (const c of candidates) {
    if (c.ffmpeg && (process.platform === 'linux' || c.source !== 'npm') && runs(c.ffmpeg)) {
      const ffprobe = c.ffprobe ?? onPath('ffprobe', env.PATH);
      return { ffmpeg: c.ffmpeg, ffprobe: ffprobe && runs(ffprobe) ? ffprobe : null, source: c.source, font: FONT_CANDIDATES.find((f) => existsSync(f)) ?? null };
    }
  }
  return null;
}

let cached: FfmpegTools | null | undefined;
/** The process-wide tools, looked up once. */
export function ffmpegTools(): FfmpegTools | null {
  if (cached === undefined) cached = locateFfmpeg();
  return cached;
}

/**
 * Runs a binary to completion; rejects with the tail of stderr; kills it when the signal aborts. It is spawned
 * tied to the server (tied-spawn.ts), so it dies with it. With `onLine`, stdout is handed over line by line
 * instead of being kept (a probe of a hostile file may print a great deal).
 */
export function runTool(bin: string, args: string[], signal?: AbortSignal, onLine?: (line: string) => void): Promise<{ stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    const child = spawnTied(bin, args);
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
    child.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      if (partial && onLine) onLine(partial);
      if (code === 0) resolve({ stdout: Buffer.concat(out), stderr: err });
      else reject(new Error(`${path.basename(bin)} exited with ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}`));
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

const PROBE_ENTRIES = 'format=format_name,duration:stream=index,codec_type,codec_name,width,height,pix_fmt:stream_disposition=attached_pic:packet=stream_index,pts_time,duration_time';

/** key=value fields of one line of ffprobe's compact output ("packet|stream_index=0|pts_time=0.02|…"). */
function fields(line: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of line.split('|').slice(1)) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return out;
}

const seconds = (v: string | undefined) => (v === undefined || v === 'N/A' || v === '' ? null : Number.isFinite(Number(v)) ? Number(v) : null);

/**
 * Reads a media file's container and streams with ffprobe, and measures its length from every packet in it.
 * `format` forces the demuxer (the caller has recognised the bytes); only local files may be opened, so a
 * hostile file cannot make ffprobe fetch a URL or read another file (playlists, MOV data references).
 */
export async function probe(ffprobe: string, file: string, signal?: AbortSignal, format?: string): Promise<ProbeResult> {
  const spans = new Map<number, { start: number; end: number }>();
  const streams: Array<Record<string, string>> = [];
  let container: Record<string, string> = {};
  await runTool(ffprobe, ['-v', 'error', '-protocol_whitelist', 'file', ...(format ? ['-f', format] : []), '-of', 'compact', '-show_entries', PROBE_ENTRIES, file], signal, (line) => {
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
  });
  const media = streams.filter((s) => (s.codec_type === 'audio' || s.codec_type === 'video') && s['disposition:attached_pic'] !== '1');
  const v = media.find((s) => s.codec_type === 'video');
  const a = media.find((s) => s.codec_type === 'audio');
  const measured = media.map((s) => spans.get(Number(s.index))).filter((s) => s !== undefined);
  // Encoder priming (AAC, Opus pre-skip) sits before 0 and is never played.
  const durationS = measured.length > 0 ? Math.max(...measured.map((s) => s.end)) - Math.max(0, Math.min(...measured.map((s) => s.start))) : 0;
  return {
    formatName: container.format_name ?? '',
    durationS: Math.max(0, Math.round(durationS * 1e6) / 1e6),
    headerDurationS: seconds(container.duration),
    video: v ? { codec: v.codec_name ?? '', width: Number(v.width ?? 0), height: Number(v.height ?? 0), pixFmt: v.pix_fmt ?? '' } : null,
    audio: a ? { codec: a.codec_name ?? '' } : null,
  };
}

/**
 * Seconds of sound the first audio stream decodes to: encoder delay and padding that the file marks (LAME's
 * gapless tag, MP4 edit lists, Opus pre-skip) are trimmed as a player trims them, so a 5.96 s MP3 is 5.96 s.
 */
export async function decodedAudioSeconds(ffmpeg: string, file: string, signal?: AbortSignal, format?: string): Promise<number> {
  let last = 0;
  const input = ['-protocol_whitelist', 'file', ...(format ? ['-f', format] : []), '-i', file];
  await runTool(ffmpeg, ['-v', 'error', '-nostdin', ...input, '-map', '0:a:0', '-f', 'null', '-progress', 'pipe:1', '-'], signal, (line) => {
    // out_time=HH:MM:SS.micro (its _ms/_us twins changed units between ffmpeg versions).
    const m = /^out_time=(-?)(\d+):(\d+):(\d+(?:\.\d+)?)$/.exec(line.trim());
    if (m && !m[1]) last = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4]);
  });
  return last;
}
