// Content sniffing: formats are told by their bytes, durations read from the headers, disguised files refused.
import { describe, expect, it } from 'vitest';
import { silentWav } from '../test-support/wav';
import { sniffMedia } from './sniff';

const wav = (seconds: number) => silentWav(seconds, 16000);

function mp4(durationS: number) {
  const box = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(8 + body.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, body]);
  };
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12);
  mvhd.writeUInt32BE(durationS * 1000, 16);
  return Buffer.concat([box('ftyp', Buffer.from('isom\0\0\0\0isom', 'latin1')), box('moov', box('mvhd', mvhd))]);
}

function mp3(frames: number) {
  // MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, no padding: 417-byte frames.
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x00]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

describe('sniffMedia', () => {
  it('reads WAV, MP3 and MP4 with their durations', () => {
    expect(sniffMedia(wav(2.5))).toEqual({ kind: 'audio', mime: 'audio/wav', durationS: 2.5 });
    const m = sniffMedia(mp3(100))!;
    expect(m.mime).toBe('audio/mpeg');
    expect(m.durationS).toBeCloseTo((417 * 100 * 8) / 128000, 3);
    expect(sniffMedia(mp4(12))).toEqual({ kind: 'video', mime: 'video/mp4', durationS: 12 });
  });

  it('recognises images', () => {
    expect(sniffMedia(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16)]))?.mime).toBe('image/png');
    expect(sniffMedia(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(16)]))?.mime).toBe('image/jpeg');
    expect(sniffMedia(Buffer.from('GIF89a' + '\0'.repeat(16), 'latin1'))?.mime).toBe('image/gif');
  });

  it('refuses text, noise and a lone 0xFF byte pretending to be MP3', () => {
    expect(sniffMedia(Buffer.from('RIFF this is only text pretending'))).toBeNull();
    expect(sniffMedia(Buffer.from('hello world, just a text file'))).toBeNull();
    expect(sniffMedia(Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x00]), Buffer.alloc(40)]))).toBeNull();
    expect(sniffMedia(Buffer.alloc(4))).toBeNull();
  });
});
