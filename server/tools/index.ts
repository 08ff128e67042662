// Local programs the server runs (ffmpeg, ffprobe): where they are, children tied to the server's life, private work
// folders.
export {
  decodedAudioSeconds,
  ffmpegTools,
  inspectFfmpeg,
  locateFfmpeg,
  parseFfmpegVersion,
  probe,
  reportFfmpeg,
  runTool,
} from './ffmpeg';
export type { FfmpegTools, FoundTool, LocateOptions, ProbeResult } from './ffmpeg';
export { spawnLimitMethod, spawnTied, tiedSpawnMethod } from './tied-spawn';
export { prepareWorkRoot, withWorkDir, workRoot, WORK_ROOT_MARKER } from './workdir';
