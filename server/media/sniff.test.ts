// Content sniffing: formats are told by their magic bytes (never by name), disguised files and still images in movie boxes refused.
import { describe, expect, it } from 'vitest';
import { silentWav } from '../test-support/wav';
import { sniffMedia } from './sniff';

const box = (type: string, body: Buffer) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};
const ftyp = (brand: string) => Buffer.concat([box('ftyp', Buffer.from(`${brand}\0\0\0\0isom`, 'latin1')), Buffer.alloc(16)]);

function mp3(frames: number) {
  // MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, no padding: 417-byte frames.
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x00]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

function adts(frames: number) {
  // AAC LC, 44.1 kHz, mono, no CRC, 100-byte frames.
  const frame = Buffer.alloc(100);
  frame.set([0xff, 0xf1, 0x50, 0x40, (100 >> 3) & 0xff, ((100 & 7) << 5) | 0x1f, 0xfc]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

function id3(body: Buffer) {
  const tag = Buffer.alloc(10 + 20);
  tag.write('ID3', 0, 'latin1');
  tag.set([3, 0, 0, 0, 0, 0, 20], 3);
  return Buffer.concat([tag, body]);
}

/** An EBML header with the given DocType, as Matroska and WebM files start. */
function ebml(docType: string) {
  const type = Buffer.from(docType, 'latin1');
  const body = Buffer.concat([Buffer.from([0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x80 | type.length]), type]);
  return Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x80 | body.length]), body, Buffer.alloc(16)]);
}

describe('sniffMedia', () => {
  it('tells the audio containers by their bytes', () => {
    expect(sniffMedia(silentWav(0.1, 8000))).toEqual({ kind: 'audio', mime: 'audio/wav' });
    expect(sniffMedia(mp3(3))).toEqual({ kind: 'audio', mime: 'audio/mpeg' });
    expect(sniffMedia(id3(mp3(3)))).toEqual({ kind: 'audio', mime: 'audio/mpeg' });
    expect(sniffMedia(adts(3))).toEqual({ kind: 'audio', mime: 'audio/aac' });
    expect(sniffMedia(Buffer.concat([Buffer.from('fLaC'), Buffer.alloc(40)]))).toEqual({ kind: 'audio', mime: 'audio/flac' });
    expect(sniffMedia(id3(Buffer.concat([Buffer.from('fLaC'), Buffer.alloc(40)])))).toEqual({ kind: 'audio', mime: 'audio/flac' });
    expect(sniffMedia(Buffer.concat([Buffer.from('OggS'), Buffer.alloc(40)]))).toEqual({ kind: 'audio', mime: 'audio/ogg' });
  });

  it('names MP4, MOV and WebM as video that may turn out to be sound only', () => {
    expect(sniffMedia(ftyp('isom'))).toEqual({ kind: 'video', mime: 'video/mp4', audioOnlyMime: 'audio/mp4' });
    expect(sniffMedia(ftyp('M4A '))).toEqual({ kind: 'video', mime: 'video/mp4', audioOnlyMime: 'audio/mp4' });
    expect(sniffMedia(ftyp('qt  '))).toEqual({ kind: 'video', mime: 'video/quicktime', audioOnlyMime: 'audio/mp4' });
    expect(sniffMedia(ebml('webm'))).toEqual({ kind: 'video', mime: 'video/webm', audioOnlyMime: 'audio/webm' });
  });

  it('recognises images', () => {
    expect(sniffMedia(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16)]))?.mime).toBe('image/png');
    expect(sniffMedia(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(16)]))?.mime).toBe('image/jpeg');
    expect(sniffMedia(Buffer.from('GIF89a' + '\0'.repeat(16), 'latin1'))?.mime).toBe('image/gif');
  });

  it('refuses text, noise, lone frame headers, Matroska and HEIF/AVIF stills', () => {
    expect(sniffMedia(Buffer.from('RIFF this is only text pretending'))).toBeNull();
    expect(sniffMedia(Buffer.from('hello world, just a text file'))).toBeNull();
    expect(sniffMedia(Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x00]), Buffer.alloc(40)]))).toBeNull();
    expect(sniffMedia(Buffer.concat([Buffer.from([0xff, 0xf1, 0x50, 0x40, 0x0c, 0x9f, 0xfc]), Buffer.alloc(40)]))).toBeNull();
    expect(sniffMedia(ebml('matroska'))).toBeNull();
    expect(sniffMedia(ftyp('heic'))).toBeNull();
    expect(sniffMedia(ftyp('avif'))).toBeNull();
    expect(sniffMedia(Buffer.alloc(4))).toBeNull();
  });
});
