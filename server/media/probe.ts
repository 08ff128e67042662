// Recognises media by its bytes and measures audio and video with ffprobe and ffmpeg: what plays, not what headers
// claim.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MEDIA_TOOLS_MISSING_MESSAGE, type MediaKind } from '../../src/lib/product-rules';
import { decodedAudioSeconds, ffmpegTools, probe, withWorkDir, type FfmpegTools } from '../tools';
import { sniffFile, sniffMedia, type SniffedType } from './sniff';

export interface ProbedMedia {
  kind: MediaKind;
  mime: string;
  /** Length in seconds for audio and video; null for images, or when nothing playable was found in the file. */
  durationS: number | null;
}

/**
 * The refusal when no usable ffprobe/ffmpeg was found (the wording lives with the tools' limits in
 * src/lib/product-rules).
 */
export const NO_FFPROBE_MESSAGE = MEDIA_TOOLS_MISSING_MESSAGE;

/** The demuxer each sniffed type is read with: the bytes chose the format, ffprobe does not guess another. */
const DEMUXERS: Record<string, string> = {
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/flac': 'flac',
  'audio/aac': 'aac',
  'audio/ogg': 'ogg',
  'video/mp4': 'mov',
  'video/quicktime': 'mov',
  'video/webm': 'matroska',
};

export interface ProbeOptions {
  signal?: AbortSignal;
  /** Tests take ffprobe away to check the refusal. */
  tools?: () => FfmpegTools | null;
}

/**
 * The media a buffer holds, or null when it is none of the accepted formats (or ffprobe cannot read it as the
 * format its bytes announce). Throws when ffprobe is missing: audio and video are never taken unmeasured.
 * For bytes already in memory (engine results); uploads are measured where they lie, by probeMediaFile().
 */
export async function probeMedia(bytes: Uint8Array, o: ProbeOptions = {}): Promise<ProbedMedia | null> {
  const sniffed = await sniffMedia(bytes);
  if (!sniffed) return null;
  if (sniffed.kind === 'image') return { kind: 'image', mime: sniffed.mime, durationS: null };
  return withWorkDir('probe-', async (dir) => {
    // No extension: neither tool may take a hint from a name.
    const file = path.join(dir, 'media');
    await writeFile(file, bytes);
    return measure(file, sniffed, o);
  });
}

/** probeMedia() for a file on disk: its head is sniffed and the tools read the file itself, nothing is loaded whole. */
export async function probeMediaFile(file: string, o: ProbeOptions = {}): Promise<ProbedMedia | null> {
  const sniffed = await sniffFile(file);
  if (!sniffed) return null;
  if (sniffed.kind === 'image') return { kind: 'image', mime: sniffed.mime, durationS: null };
  return measure(file, sniffed, o);
}

/** Audio and video measured by ffprobe and ffmpeg, reading `file` as the format its bytes announced. */
async function measure(file: string, sniffed: SniffedType, o: ProbeOptions): Promise<ProbedMedia | null> {
  const tools = (o.tools ?? ffmpegTools)();
  if (!tools?.ffprobe) throw new Error(NO_FFPROBE_MESSAGE);
  const { ffmpeg, ffprobe } = tools;
  const format = DEMUXERS[sniffed.mime];
  const unreadable = (error: unknown) => {
    if (o.signal?.aborted) throw error;
    return null;
  };
  const info = await probe(ffprobe, file, o.signal, format).catch(unreadable);
  if (!info) return null;
  let kind: MediaKind;
  let mime: string;
  if (sniffed.kind === 'video' && info.video) [kind, mime] = ['video', sniffed.mime];
  else if (sniffed.kind === 'video' && info.audio && sniffed.audioOnlyMime)
    [kind, mime] = ['audio', sniffed.audioOnlyMime];
  else if (sniffed.kind === 'audio' && info.audio) [kind, mime] = ['audio', sniffed.mime];
  else return null;
  // Sound is measured by decoding it (cheap, and exact where packets carry encoder padding); video by its packets.
  const seconds =
    kind === 'audio' ? await decodedAudioSeconds(ffmpeg, file, o.signal, format).catch(unreadable) : info.durationS;
  if (seconds === null) return null;
  return { kind, mime, durationS: seconds > 0 ? seconds : null };
}
