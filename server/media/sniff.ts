// Recognises media by its bytes (never by its name): the container's magic numbers; lengths are measured by probe.ts.
import type { MediaKind } from '../../src/lib/spec';

export interface SniffedType {
  kind: MediaKind;
  mime: string;
  /**
   * Containers that hold video or sound alike (MP4/MOV, WebM) are named as video here; when the streams
   * inside turn out to be sound only, the file is audio of this type instead (an .m4a is an MP4 of AAC).
   */
  audioOnlyMime?: string;
}

const ascii = (b: Uint8Array, at: number, len: number) => Buffer.from(b.subarray(at, at + len)).toString('latin1');

/** ISO-BMFF brands of still images (HEIF, AVIF): an ftyp box, but not a movie. */
const IMAGE_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1', 'avif', 'avis']);

/** The type a buffer holds, or null when it is none of the accepted formats. */
export function sniffMedia(bytes: Uint8Array): SniffedType | null {
  if (bytes.length < 12) return null;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WAVE') return { kind: 'audio', mime: 'audio/wav' };
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return { kind: 'image', mime: 'image/webp' };
  if (buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { kind: 'image', mime: 'image/png' };
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { kind: 'image', mime: 'image/jpeg' };
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return { kind: 'image', mime: 'image/gif' };
  if (ascii(bytes, 4, 4) === 'ftyp') {
    const brand = ascii(bytes, 8, 4);
    if (IMAGE_BRANDS.has(brand)) return null;
    return { kind: 'video', mime: brand === 'qt  ' ? 'video/quicktime' : 'video/mp4', audioOnlyMime: 'audio/mp4' };
  }
  if (ascii(bytes, 0, 4) === 'OggS') return { kind: 'audio', mime: 'audio/ogg' };
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) {
    return ebmlDocType(buf) === 'webm' ? { kind: 'video', mime: 'video/webm', audioOnlyMime: 'audio/webm' } : null;
  }
  return taggedAudio(buf);
}

/**
 * MP3, FLAC and raw AAC (ADTS), each possibly after an ID3v2 tag. Frame streams need two consecutive valid
 * frame headers, so random bytes that happen to start with 0xFF are not taken for audio.
 */
function taggedAudio(buf: Buffer): SniffedType | null {
  return audioFramesAt(buf, id3TagEnd(buf) ?? 0);
}

/** Where the audio after a leading ID3v2 tag starts, or null when the bytes do not start with one. */
export function id3TagEnd(bytes: Uint8Array): number | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 10 || buf.toString('latin1', 0, 3) !== 'ID3') return null;
  // The ID3v2 size is four 7-bit bytes (syncsafe); a footer adds 10 more.
  const footer = buf[5]! & 0x10 ? 10 : 0;
  return 10 + footer + ((buf[6]! << 21) | (buf[7]! << 14) | (buf[8]! << 7) | buf[9]!);
}

/** MP3, FLAC or AAC at the start of `bytes`: what follows an ID3 tag that was read separately (probe.ts sniffFile). */
export function sniffTaggedAudio(bytes: Uint8Array): SniffedType | null {
  return audioFramesAt(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0);
}

function audioFramesAt(buf: Buffer, at: number): SniffedType | null {
  if (buf.toString('latin1', at, at + 4) === 'fLaC') return { kind: 'audio', mime: 'audio/flac' };
  const mp3 = mp3FrameLength(buf, at);
  if (mp3 !== null && mp3FrameLength(buf, at + mp3) !== null) return { kind: 'audio', mime: 'audio/mpeg' };
  const adts = adtsFrameLength(buf, at);
  if (adts !== null && adtsFrameLength(buf, at + adts) !== null) return { kind: 'audio', mime: 'audio/aac' };
  return null;
}

const MP3_BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MP3_BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];

/** Length of the MPEG audio Layer III frame at `at`, or null when no valid frame header is there. */
function mp3FrameLength(buf: Buffer, at: number): number | null {
  if (at + 4 > buf.length) return null;
  const b1 = buf[at + 1]!;
  const b2 = buf[at + 2]!;
  if (buf[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 0x3; // 3 = MPEG1, 2 = MPEG2, 0 = MPEG2.5
  const layer = (b1 >> 1) & 0x3; // 1 = Layer III
  if (version === 1 || layer !== 1) return null;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 0x3;
  if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const bitrateKbps = (version === 3 ? MP3_BITRATES_V1_L3 : MP3_BITRATES_V2_L3)[bitrateIndex]!;
  const baseRate = [44100, 48000, 32000][rateIndex]!;
  const sampleRate = version === 3 ? baseRate : version === 2 ? baseRate / 2 : baseRate / 4;
  const padding = (b2 >> 1) & 0x1;
  const length = Math.floor(((version === 3 ? 144 : 72) * bitrateKbps * 1000) / sampleRate) + padding;
  return length > 4 ? length : null;
}

/** Length of the ADTS (raw AAC) frame at `at`, or null when no valid frame header is there. */
function adtsFrameLength(buf: Buffer, at: number): number | null {
  if (at + 7 > buf.length) return null;
  // Sync word 0xFFF, layer 0; the sampling frequency index 13–15 is reserved.
  if (buf[at] !== 0xff || (buf[at + 1]! & 0xf6) !== 0xf0 || ((buf[at + 2]! >> 2) & 0xf) > 12) return null;
  const length = ((buf[at + 3]! & 0x03) << 11) | (buf[at + 4]! << 3) | (buf[at + 5]! >> 5);
  const header = buf[at + 1]! & 0x01 ? 7 : 9;
  return length > header ? length : null;
}

/** An EBML variable-length integer at `at`: its value and width, or null when malformed. */
function vint(buf: Buffer, at: number, keepMarker: boolean): { value: number; width: number } | null {
  const first = buf[at];
  if (first === undefined || first === 0) return null;
  const width = Math.clz32(first) - 23;
  if (width > 8 || at + width > buf.length) return null;
  let value = keepMarker ? first : first & (0xff >> width);
  for (let i = 1; i < width; i++) value = value * 256 + buf[at + i]!;
  return { value, width };
}

/** The DocType of an EBML header ("webm", "matroska"), or null. */
function ebmlDocType(buf: Buffer): string | null {
  const size = vint(buf, 4, false);
  if (!size) return null;
  let at = 4 + size.width;
  const end = Math.min(buf.length, at + size.value);
  while (at < end) {
    const id = vint(buf, at, true);
    if (!id) return null;
    const len = vint(buf, at + id.width, false);
    if (!len) return null;
    const body = at + id.width + len.width;
    if (id.value === 0x4282) return buf.toString('latin1', body, Math.min(end, body + len.value));
    at = body + len.value;
  }
  return null;
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
