// Hand-built WAV bytes for tests: silence as 16-bit mono PCM, no encoder or media tool needed.

/** `seconds` of silence at `sampleRate` Hz as a 16-bit mono PCM WAV: the 44-byte RIFF header, then the samples. */
export function silentWav(seconds: number, sampleRate: number): Buffer<ArrayBuffer> {
  const pcm = Buffer.alloc(Math.round(sampleRate * seconds) * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}
