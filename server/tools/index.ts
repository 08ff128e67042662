// Local programs the server runs (ffmpeg, ffprobe): where they are, children tied to the server's life, private work folders.
export { decodedAudioSeconds, ffmpegTools, locateFfmpeg, probe, runTool } from './ffmpeg';
export type { FfmpegTools, LocateOptions, ProbeResult } from './ffmpeg';
export { spawnTied, tiedSpawnMethod } from './tied-spawn';
export { prepareWorkRoot, withWorkDir, workRoot, WORK_ROOT_MARKER } from './workdir';
