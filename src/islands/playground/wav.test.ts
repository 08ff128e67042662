// Recordings become 16-bit mono WAV the server accepts: uploaded to the real server, which measures it with ffprobe.
import { describe, expect, it } from 'vitest';
import { createTasksTestApp, createUser } from '../../../server/test-support/tasks';
import { MESSAGES } from '../../lib/product-rules';
import { encodeWav } from './wav';

describe('encodeWav', () => {
  it('writes a WAV the upload takes as audio/wav of the right length', async () => {
    const rate = 16_000;
    const samples = new Float32Array(rate * 2).map((_, i) => Math.sin(i / 10) * 0.5);
    const wav = encodeWav(samples, rate);
    expect(wav.type).toBe('audio/wav');
    expect(wav.size).toBe(44 + samples.length * 2);
    const t = await createTasksTestApp();
    try {
      const user = await createUser(t, 0);
      const form = new FormData();
      form.append('scene', 'audio');
      form.append('file', wav, 'recording.wav');
      const res = await t.app.request('/api-playground/file/v1/upload', {
        method: 'POST',
        headers: { token: user.token },
        body: form,
      });
      const body = (await res.json()) as {
        code: number;
        msg: string;
        data: { kind: string; mime: string; durationS: number };
      };
      expect(body.msg).toBe(MESSAGES.successfully);
      expect(body.data).toMatchObject({ kind: 'audio', mime: 'audio/wav' });
      expect(body.data.durationS).toBeCloseTo(2, 2);
    } finally {
      await t.close();
    }
  });

  it('declares PCM, one channel, 16 bits at the given rate', async () => {
    const view = new DataView(await encodeWav(new Float32Array(10), 22_050).arrayBuffer());
    expect(view.getUint16(20, true)).toBe(1);
    expect(view.getUint16(22, true)).toBe(1);
    expect(view.getUint32(24, true)).toBe(22_050);
    expect(view.getUint32(28, true)).toBe(44_100);
    expect(view.getUint16(34, true)).toBe(16);
    expect(view.getUint32(40, true)).toBe(20);
  });

  it('scales samples to 16 bits and clips what lies outside [-1, 1]', async () => {
    const view = new DataView(await encodeWav(Float32Array.from([0, 1, -1, 0.5, 3, -7]), 8000).arrayBuffer());
    const pcm = [0, 1, 2, 3, 4, 5].map((i) => view.getInt16(44 + i * 2, true));
    expect(pcm).toEqual([0, 32767, -32767, 16383, 32767, -32767]);
  });
});
