// Recognises media by its bytes (never by its name) with file-type; lengths and streams are measured by probe.ts.
import { fileTypeFromBuffer, fileTypeFromFile, type FileTypeResult } from 'file-type';
import type { MediaKind } from '../../src/lib/product-rules';

export interface SniffedType {
  kind: MediaKind;
  mime: string;
  /**
   * Containers that hold video or sound alike (MP4/MOV, WebM) are named as video here; when the streams
   * inside turn out to be sound only, the file is audio of this type instead (an .m4a is an MP4 of AAC).
   */
  audioOnlyMime?: string;
}

const MP4: SniffedType = { kind: 'video', mime: 'video/mp4', audioOnlyMime: 'audio/mp4' };

/**
 * The formats we accept, keyed by file-type's `ext`: it names the format more finely than its mime does (mp3 rather
 * than mp2 under audio/mpeg, Opus as "audio/ogg; codecs=opus"). Whatever file-type reports that is not here is
 * refused: HEIC/HEIF/AVIF stills in movie boxes, Matroska that is not WebM, Ogg without an audio codec we read.
 */
const ACCEPTED: Readonly<Record<string, SniffedType>> = {
  wav: { kind: 'audio', mime: 'audio/wav' },
  mp3: { kind: 'audio', mime: 'audio/mpeg' },
  flac: { kind: 'audio', mime: 'audio/flac' },
  aac: { kind: 'audio', mime: 'audio/aac' },
  // Ogg Vorbis, Ogg Opus and FLAC in Ogg.
  ogg: { kind: 'audio', mime: 'audio/ogg' },
  opus: { kind: 'audio', mime: 'audio/ogg' },
  oga: { kind: 'audio', mime: 'audio/ogg' },
  // Every ISO-BMFF movie brand is an MP4 whose streams decide between video and sound (M4A is AAC in MP4).
  mp4: MP4,
  m4a: MP4,
  m4b: MP4,
  m4v: MP4,
  '3gp': MP4,
  '3g2': MP4,
  mov: { kind: 'video', mime: 'video/quicktime', audioOnlyMime: 'audio/mp4' },
  webm: { kind: 'video', mime: 'video/webm', audioOnlyMime: 'audio/webm' },
  png: { kind: 'image', mime: 'image/png' },
  // An animated PNG is still a PNG to every viewer.
  apng: { kind: 'image', mime: 'image/png' },
  jpg: { kind: 'image', mime: 'image/jpeg' },
  webp: { kind: 'image', mime: 'image/webp' },
  gif: { kind: 'image', mime: 'image/gif' },
};

const accepted = (found: FileTypeResult | undefined): SniffedType | null =>
  found ? (ACCEPTED[found.ext] ?? null) : null;

/** The type a buffer holds, or null when it is none of the accepted formats. */
export async function sniffMedia(bytes: Uint8Array): Promise<SniffedType | null> {
  return accepted(await fileTypeFromBuffer(bytes));
}

/**
 * sniffMedia() for a file on disk: file-type reads only the bytes it needs from the start (and skips a leading ID3 tag,
 * however long its cover art makes it, by seeking), so the file is never loaded whole.
 */
export async function sniffFile(file: string): Promise<SniffedType | null> {
  return accepted(await fileTypeFromFile(file));
}

/**
 * WAV length from the fmt chunk's byte rate and the data chunk's size; null when the chunks are missing.
 * Only for PCM WAVs this server writes itself (speech engine); uploaded and fetched media are measured by probe.ts.
 */
export function wavDuration(buf: Buffer): number | null {
  let at = 12;
  let byteRate = 0;
  while (at + 8 <= buf.length) {
    const id = buf.toString('latin1', at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    if (id === 'fmt ' && at + 16 <= buf.length) byteRate = buf.readUInt32LE(at + 8 + 8);
    if (id === 'data') {
      if (byteRate <= 0) return null;
      // Streamed WAVs may carry 0 or 0xFFFFFFFF as size; the bytes actually present are the truth then.
      const present = buf.length - (at + 8);
      const dataSize = size === 0 || size > present ? present : size;
      return dataSize / byteRate;
    }
    at += 8 + size + (size % 2);
  }
  return null;
}
