// Recognises uploaded media by its bytes (never by its name) and reads its duration from the container headers.
import type { MediaKind } from '../../src/lib/spec/tasks';

export interface SniffedMedia {
  kind: MediaKind;
  mime: string;
  /** Length in seconds for audio and video; null for images or when the header does not say. */
  durationS: number | null;
}

const ascii = (b: Uint8Array, at: number, len: number) => Buffer.from(b.subarray(at, at + len)).toString('latin1');

/** The media a buffer holds, or null when it is none of the accepted formats. */
export function sniffMedia(bytes: Uint8Array): SniffedMedia | null {
  if (bytes.length < 12) return null;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WAVE') {
    const durationS = wavDuration(buf);
    return durationS === null ? null : { kind: 'audio', mime: 'audio/wav', durationS };
  }
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return { kind: 'image', mime: 'image/webp', durationS: null };
  if (buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { kind: 'image', mime: 'image/png', durationS: null };
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { kind: 'image', mime: 'image/jpeg', durationS: null };
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return { kind: 'image', mime: 'image/gif', durationS: null };
  if (ascii(bytes, 4, 4) === 'ftyp') {
    const brand = ascii(bytes, 8, 4);
    return { kind: 'video', mime: brand === 'qt  ' ? 'video/quicktime' : 'video/mp4', durationS: mp4Duration(buf) };
  }
  const mp3 = mp3Duration(buf);
  if (mp3 !== null) return { kind: 'audio', mime: 'audio/mpeg', durationS: mp3 };
  return null;
}

/** WAV length from the fmt chunk's byte rate and the data chunk's size; null when the chunks are missing. */
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

/** MP4/MOV length from the movie header box (moov/mvhd: timescale and duration). */
function mp4Duration(buf: Buffer): number | null {
  const moov = findBox(buf, 0, buf.length, 'moov');
  if (!moov) return null;
  const mvhd = findBox(buf, moov.start, moov.end, 'mvhd');
  if (!mvhd || mvhd.start + 32 > buf.length) return null;
  const version = buf[mvhd.start]!;
  if (version === 1) {
    const timescale = buf.readUInt32BE(mvhd.start + 20);
    const duration = Number(buf.readBigUInt64BE(mvhd.start + 24));
    return timescale > 0 ? duration / timescale : null;
  }
  const timescale = buf.readUInt32BE(mvhd.start + 12);
  const duration = buf.readUInt32BE(mvhd.start + 16);
  return timescale > 0 ? duration / timescale : null;
}

function findBox(buf: Buffer, from: number, to: number, type: string): { start: number; end: number } | null {
  let at = from;
  while (at + 8 <= to) {
    let size = buf.readUInt32BE(at);
    let header = 8;
    if (size === 1 && at + 16 <= to) {
      size = Number(buf.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header) return null;
    if (buf.toString('latin1', at + 4, at + 8) === type) return { start: at + header, end: Math.min(at + size, to) };
    at += size;
  }
  return null;
}

const MP3_BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MP3_BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];

/**
 * MP3 length from its first frame header, treating the stream as constant bitrate. Two consecutive valid
 * frame headers are required, so random bytes that happen to start with 0xFF are not taken for audio.
 */
function mp3Duration(buf: Buffer): number | null {
  let at = 0;
  if (buf.toString('latin1', 0, 3) === 'ID3' && buf.length >= 10) {
    // The ID3v2 size is four 7-bit bytes (syncsafe).
    at = 10 + ((buf[6]! << 21) | (buf[7]! << 14) | (buf[8]! << 7) | buf[9]!);
  }
  const first = mp3Frame(buf, at);
  if (!first) return null;
  const second = mp3Frame(buf, at + first.length);
  if (!second) return null;
  return ((buf.length - at) * 8) / (first.bitrateKbps * 1000);
}

function mp3Frame(buf: Buffer, at: number): { length: number; bitrateKbps: number } | null {
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
  return length > 4 ? { length, bitrateKbps } : null;
}
