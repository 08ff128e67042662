// Finds ffmpeg/ffprobe (FFMPEG_PATH/FFPROBE_PATH, else PATH), reads their versions, and refuses builds too old to parse
// outside files.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { FFMPEG_MIN_MAJOR, ffmpegMissingMessage, ffmpegRefusedMessage } from '../../src/lib/product-rules';

export interface FfmpegTools {
  ffmpeg: string;
  /** null when none is found or the one found is refused: audio and video are then refused (503). */
  ffprobe: string | null;
  /** Where ffmpeg came from, for logs. */
  source: 'env' | 'path';
  /** A TrueType font for drawtext, when the system has one. */
  font: string | null;
}

/** One binary as found: its path and the version it states; `problem` says why it is not used. */
export interface FoundTool {
  tool: 'ffmpeg' | 'ffprobe';
  file: string | null;
  version: string;
  problem: string | null;
}

export interface LocateOptions {
  env?: Record<string, string | undefined>;
}

function executable(file: string): string | null {
  try {
    accessSync(file, constants.X_OK);
    return file;
  } catch {
    return null;
  }
}

function onPath(bin: string, envPath = ''): string | null {
  for (const dir of envPath.split(path.delimiter).filter(Boolean)) {
    const file = executable(path.join(dir, bin));
    if (file) return file;
  }
  return null;
}

/**
 * The release a `-version` banner names ("ffmpeg version 5.1.9-0+deb12u1 …" → "5.1.9-0+deb12u1"), and its major
 * number; null for a git snapshot ("N-47683-g0e8eb07980-static", the npm packages' build), whose age is unknown.
 */
export function parseFfmpegVersion(banner: string): { version: string; major: number | null } {
  const version = /^\S+ version (\S+)/m.exec(banner)?.[1] ?? '';
  const major = /^n?(\d+)\.\d+/.exec(version)?.[1];
  return { version, major: major === undefined ? null : Number(major) };
}

function inspect(tool: FoundTool['tool'], file: string | null): FoundTool {
  if (!file) return { tool, file, version: '', problem: ffmpegMissingMessage(tool) };
  // Works by running it: a file that exists but cannot execute here (wrong platform) does not count.
  const run = spawnSync(file, ['-version'], { encoding: 'utf8', timeout: 10_000 });
  const { version, major } = parseFfmpegVersion(run.status === 0 ? run.stdout : '');
  const problem = major !== null && major >= FFMPEG_MIN_MAJOR ? null : ffmpegRefusedMessage(tool, file, version);
  return { tool, file, version, problem };
}

const FONT_CANDIDATES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
  '/usr/share/fonts/TTF/DejaVuSans.ttf',
  '/usr/share/fonts/dejavu/DejaVuSans.ttf',
  '/System/Library/Fonts/Supplemental/Arial.ttf',
];

/**
 * ffmpeg and ffprobe as found, each checked. The npm-shipped static builds are never looked at: the ffmpeg one
 * is from 2018, and the binaries that parse anyone's uploads must be ones the system keeps patched.
 */
export function inspectFfmpeg(o: LocateOptions = {}): { tools: FfmpegTools | null; found: [FoundTool, FoundTool] } {
  const env = o.env ?? process.env;
  const pick = (bin: string, variable: string | undefined) => (variable ? executable(variable) : onPath(bin, env.PATH));
  const ffmpeg = inspect('ffmpeg', pick('ffmpeg', env.FFMPEG_PATH));
  const ffprobe = inspect('ffprobe', pick('ffprobe', env.FFPROBE_PATH));
  const tools =
    ffmpeg.file && !ffmpeg.problem
      ? {
          ffmpeg: ffmpeg.file,
          ffprobe: ffprobe.problem ? null : ffprobe.file,
          source: env.FFMPEG_PATH ? ('env' as const) : ('path' as const),
          font: FONT_CANDIDATES.find((f) => existsSync(f)) ?? null,
        }
      : null;
  return { tools, found: [ffmpeg, ffprobe] };
}

export function locateFfmpeg(o: LocateOptions = {}): FfmpegTools | null {
  return inspectFfmpeg(o).tools;
}

let cached: ReturnType<typeof inspectFfmpeg> | undefined;
/** The process-wide tools, looked up once. */
export function ffmpegTools(): FfmpegTools | null {
  cached ??= inspectFfmpeg();
  return cached.tools;
}

/** Startup: which ffmpeg and ffprobe read outside files, or a clear error for each that is missing or refused. */
export function reportFfmpeg(log: {
  info(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}): void {
  cached ??= inspectFfmpeg();
  for (const t of cached.found) {
    if (t.problem) log.error(t.problem, { tool: t.tool, path: t.file, version: t.version || null });
    else log.info(`${t.tool} ready`, { path: t.file, version: t.version });
  }
}
