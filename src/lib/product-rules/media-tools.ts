// ffmpeg and ffprobe, which parse outside bytes: the oldest release accepted, each run's limits, and the messages.

/** The oldest ffmpeg/ffprobe release (major version) that may read outside files; Debian bookworm ships 5.1. */
export const FFMPEG_MIN_MAJOR = 5;

/**
 * Limits of every ffmpeg/ffprobe run (setrlimit through util-linux prlimit). A hostile file can at most spend
 * this CPU time (all threads together) and address space; past the CPU time the kernel kills the run, past the
 * address space its allocations fail and the run is failed. Address space, not resident memory: Debian's build
 * maps some 250 MB of shared libraries before it reads a byte, and a render's threads reserve more.
 */
export const FFMPEG_LIMITS = {
  cpuSeconds: 600,
  addressSpaceBytes: 3 * 1024 ** 3,
} as const;

/** Tighter limits for measuring an outside file (ffprobe, the audio decode): measuring 300 s of media is quick. */
export const FFMPEG_MEASURE_LIMITS = {
  cpuSeconds: 60,
  addressSpaceBytes: 1024 ** 3,
} as const;

/** Why audio and video are refused (HTTP 503): no usable ffprobe/ffmpeg. Shown to the client after the field name. */
export const MEDIA_TOOLS_MISSING_MESSAGE =
  'this server cannot measure the length of audio and video: no usable ffprobe/ffmpeg (install a current ffmpeg, e.g. apt-get install ffmpeg; else set FFPROBE_PATH and FFMPEG_PATH)';

/** The startup error for a binary that must not read outside files. */
export const ffmpegRefusedMessage = (tool: 'ffmpeg' | 'ffprobe', file: string, version: string) =>
  `${tool} at ${file} is version ${version || 'unknown'}, not a release ${FFMPEG_MIN_MAJOR} or newer: it will not read outside files, so audio and video uploads are refused (503). Install a current ffmpeg (apt-get install ffmpeg) or point ${tool === 'ffmpeg' ? 'FFMPEG_PATH' : 'FFPROBE_PATH'} at one.`;

/** The startup error when a binary is not found at all. */
export const ffmpegMissingMessage = (tool: 'ffmpeg' | 'ffprobe') =>
  `${tool} was not found (${tool === 'ffmpeg' ? 'FFMPEG_PATH' : 'FFPROBE_PATH'}, then PATH): audio and video uploads are refused (503). Install a current ffmpeg (apt-get install ffmpeg).`;
