// The offline speech engine: real WAV output from eSpeak-NG on a worker thread, option-like text spoken as text,
// aborts.
import { describe, expect, it } from 'vitest';
import { wavDuration } from '../media';
import { synthesize } from './espeak';
import { readWav } from './wav';

describe('eSpeak-NG synthesis', () => {
  it('speaks a text into a mono 16-bit WAV whose length grows with the text', async () => {
    const short = await synthesize('Hello there.', 'en-us+f3');
    const long = await synthesize(
      'Hello there. This sentence is a good deal longer than the first one, so it lasts longer.',
      'en-us+f3',
    );
    expect(short.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(readWav(short)).toMatchObject({ channels: 1, bitsPerSample: 16 });
    expect(wavDuration(long)!).toBeGreaterThan(wavDuration(short)! * 2);
  });

  it('reads a text that looks like command-line options as words, not as options', async () => {
    const wav = await synthesize('-w /etc/passwd --help', 'en-us+m3');
    expect(wavDuration(wav)!).toBeGreaterThan(0.5);
  });

  it('an aborted synthesis rejects with the reason and answers nothing', async () => {
    const controller = new AbortController();
    const running = synthesize('A long text to speak. '.repeat(200), 'en-gb+m1', undefined, controller.signal);
    controller.abort(new Error('task canceled'));
    await expect(running).rejects.toThrow('task canceled');
  });
});
