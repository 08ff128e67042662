// Minimal PCM WAV handling for speech output: read the samples, join clips with silence, write a WAV.
import { wavDuration } from '../media/sniff';

export interface Pcm {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  data: Buffer;
}

/** Reads a PCM WAV's format and sample bytes; throws when it is not one (engine output is checked, not trusted). */
export function readWav(buf: Buffer): Pcm {
  if (buf.toString('latin1', 0, 4) !== 'RIFF' || buf.toString('latin1', 8, 12) !== 'WAVE')
    throw new Error('not a WAV file');
  let at = 12;
  let fmt: Omit<Pcm, 'data'> | undefined;
  while (at + 8 <= buf.length) {
    const id = buf.toString('latin1', at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    if (id === 'fmt ') {
      fmt = {
        channels: buf.readUInt16LE(at + 10),
        sampleRate: buf.readUInt32LE(at + 12),
        bitsPerSample: buf.readUInt16LE(at + 22),
      };
    } else if (id === 'data') {
      if (!fmt) throw new Error('WAV data before fmt chunk');
      const end = size === 0 || at + 8 + size > buf.length ? buf.length : at + 8 + size;
      return { ...fmt, data: buf.subarray(at + 8, end) };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error('WAV has no data chunk');
}

export function writeWav(pcm: Pcm): Buffer {
  const header = Buffer.alloc(44);
  const blockAlign = (pcm.channels * pcm.bitsPerSample) / 8;
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + pcm.data.length, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(pcm.channels, 22);
  header.writeUInt32LE(pcm.sampleRate, 24);
  header.writeUInt32LE(pcm.sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(pcm.bitsPerSample, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(pcm.data.length, 40);
  return Buffer.concat([header, pcm.data]);
}

/** Joins clips of one format, with the given silence (ms) before each clip but the first. */
export function joinWithPauses(clips: Array<{ pcm: Pcm; pauseBeforeMs: number }>): Pcm {
  const first = clips[0];
  if (!first) throw new Error('nothing to join');
  const parts: Buffer[] = [];
  for (const [i, clip] of clips.entries()) {
    const { pcm } = clip;
    if (
      pcm.sampleRate !== first.pcm.sampleRate ||
      pcm.channels !== first.pcm.channels ||
      pcm.bitsPerSample !== first.pcm.bitsPerSample
    ) {
      throw new Error('clips differ in format');
    }
    if (i > 0) {
      const blockAlign = (pcm.channels * pcm.bitsPerSample) / 8;
      parts.push(Buffer.alloc(Math.round((clip.pauseBeforeMs / 1000) * pcm.sampleRate) * blockAlign));
    }
    parts.push(pcm.data);
  }
  return { ...first.pcm, data: Buffer.concat(parts) };
}

export function wavSeconds(buf: Buffer): number {
  return wavDuration(buf) ?? 0;
}
