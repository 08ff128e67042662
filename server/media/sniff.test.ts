// Content sniffing (file-type): formats are told by their bytes (never by name), disguised files and still images in
// movie boxes refused.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UPLOAD_LIMITS } from '../../src/lib/product-rules';
import { silentWav } from '../test-support/wav';
import { sniffFile, sniffMedia } from './sniff';

const box = (type: string, body: Buffer) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};
const ftyp = (brand: string) =>
  Buffer.concat([box('ftyp', Buffer.from(`${brand}\0\0\0\0isom`, 'latin1')), Buffer.alloc(16)]);

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

/** The first page of an Ogg stream whose first packet starts with `head` (OpusHead, \x01vorbis, …). */
function ogg(head: string) {
  const page = Buffer.alloc(28);
  page.write('OggS', 0, 'latin1');
  page[5] = 0x02; // beginning of stream
  page[26] = 1; // one segment
  page[27] = 19;
  return Buffer.concat([page, Buffer.from(head, 'latin1'), Buffer.alloc(19)]);
}

/** A PNG signature and its IHDR chunk: 1x1, 8-bit RGB. */
function png() {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(1, 8);
  ihdr.writeUInt32BE(1, 12);
  ihdr.set([8, 2], 16);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr, Buffer.alloc(16)]);
}

const flac = Buffer.concat([Buffer.from('fLaC'), Buffer.alloc(40)]);

describe('sniffMedia', () => {
  it('tells the audio containers by their bytes', async () => {
    expect(await sniffMedia(silentWav(0.1, 8000))).toEqual({ kind: 'audio', mime: 'audio/wav' });
    expect(await sniffMedia(mp3(3))).toEqual({ kind: 'audio', mime: 'audio/mpeg' });
    expect(await sniffMedia(id3(mp3(3)))).toEqual({ kind: 'audio', mime: 'audio/mpeg' });
    expect(await sniffMedia(adts(3))).toEqual({ kind: 'audio', mime: 'audio/aac' });
    expect(await sniffMedia(flac)).toEqual({ kind: 'audio', mime: 'audio/flac' });
    expect(await sniffMedia(id3(flac))).toEqual({ kind: 'audio', mime: 'audio/flac' });
    expect(await sniffMedia(ogg('OpusHead'))).toEqual({ kind: 'audio', mime: 'audio/ogg' });
    expect(await sniffMedia(ogg('\x01vorbis'))).toEqual({ kind: 'audio', mime: 'audio/ogg' });
  });

  it('names MP4, M4A, MOV and WebM as video that may turn out to be sound only', async () => {
    expect(await sniffMedia(ftyp('isom'))).toEqual({ kind: 'video', mime: 'video/mp4', audioOnlyMime: 'audio/mp4' });
    expect(await sniffMedia(ftyp('M4A '))).toEqual({ kind: 'video', mime: 'video/mp4', audioOnlyMime: 'audio/mp4' });
    expect(await sniffMedia(ftyp('qt  '))).toEqual({
      kind: 'video',
      mime: 'video/quicktime',
      audioOnlyMime: 'audio/mp4',
    });
    expect(await sniffMedia(ebml('webm'))).toEqual({ kind: 'video', mime: 'video/webm', audioOnlyMime: 'audio/webm' });
  });

  it('recognises images', async () => {
    expect((await sniffMedia(png()))?.mime).toBe('image/png');
    expect((await sniffMedia(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(16)])))?.mime).toBe(
      'image/jpeg',
    );
    expect((await sniffMedia(Buffer.from('GIF89a' + '\0'.repeat(16), 'latin1')))?.mime).toBe('image/gif');
    expect((await sniffMedia(Buffer.from('RIFF\0\0\0\0WEBPVP8 ' + '\0'.repeat(16), 'latin1')))?.mime).toBe(
      'image/webp',
    );
  });

  it('refuses text, Matroska, HEIF/AVIF stills, Ogg of no audio codec and other formats', async () => {
    expect(await sniffMedia(Buffer.from('RIFF this is only text pretending'))).toBeNull();
    expect(await sniffMedia(Buffer.from('hello world, just a text file'))).toBeNull();
    expect(await sniffMedia(ebml('matroska'))).toBeNull();
    expect(await sniffMedia(ftyp('heic'))).toBeNull();
    expect(await sniffMedia(ftyp('mif1'))).toBeNull();
    expect(await sniffMedia(ftyp('avif'))).toBeNull();
    expect(await sniffMedia(Buffer.concat([Buffer.from('OggS'), Buffer.alloc(40)]))).toBeNull();
    expect(await sniffMedia(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(40)]))).toBeNull();
    expect(await sniffMedia(Buffer.alloc(4))).toBeNull();
  });

  it('names only types the upload limits accept', async () => {
    const samples = [
      silentWav(0.1, 8000),
      mp3(3),
      adts(3),
      flac,
      ogg('OpusHead'),
      ftyp('isom'),
      ftyp('qt  '),
      ebml('webm'),
      png(),
    ];
    for (const sample of samples) {
      const sniffed = (await sniffMedia(sample))!;
      expect(UPLOAD_LIMITS[sniffed.kind].mimes).toContain(sniffed.mime);
      if (sniffed.audioOnlyMime) expect(UPLOAD_LIMITS.audio.mimes).toContain(sniffed.audioOnlyMime);
    }
  });
});

describe('sniffFile', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sniff-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds MP3 and FLAC behind an ID3 tag longer than any head it could read at once (cover art)', async () => {
    const bigTag = (body: Buffer) => {
      const size = 3 * 1024 * 1024;
      const head = Buffer.from([
        0x49,
        0x44,
        0x33,
        3,
        0,
        0,
        (size >> 21) & 0x7f,
        (size >> 14) & 0x7f,
        (size >> 7) & 0x7f,
        size & 0x7f,
      ]);
      return Buffer.concat([head, Buffer.alloc(size), body]);
    };
    writeFileSync(path.join(dir, 'tagged'), bigTag(mp3(3)));
    expect(await sniffFile(path.join(dir, 'tagged'))).toEqual({ kind: 'audio', mime: 'audio/mpeg' });
    writeFileSync(path.join(dir, 'tagged-flac'), bigTag(flac));
    expect(await sniffFile(path.join(dir, 'tagged-flac'))).toEqual({ kind: 'audio', mime: 'audio/flac' });
    writeFileSync(path.join(dir, 'text'), 'just text, whatever its name');
    expect(await sniffFile(path.join(dir, 'text'))).toBeNull();
  });
});
