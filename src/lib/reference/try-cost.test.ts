// Try it's cost question: the credits a submit holds, priced from the edited body; nothing for reads and free tools.
import { describe, expect, it } from 'vitest';
import { tryItCost } from './try-cost';

describe('tryItCost', () => {
  it('text2video costs its row: 60 at 4 s 720p by default, 120 with duration 8', () => {
    expect(tryItCost('/api/async/text2video', { prompt: 'A lighthouse' })).toEqual({
      credits: 60,
      price: expect.stringContaining('60'),
    });
    expect(tryItCost('/api/async/text2video', { prompt: 'A lighthouse', duration: 8 })?.credits).toBe(120);
  });

  it('speech is priced on the characters of the text', () => {
    expect(tryItCost('/api/async/do_tts_common', { text: 'x'.repeat(251) })?.credits).toBe(2);
    expect(tryItCost('/api/async/image_generation', { prompt: 'p', count: 3 })?.credits).toBe(6);
  });

  it('a per-second tool says its price but no total (the media length is not known here)', () => {
    const cost = tryItCost('/api/async/video_translate/2.0', {
      videoUrl: 'https://example.com/v.mp4',
      targetLanguage: 'es',
    });
    expect(cost?.credits).toBeNull();
    expect(cost?.price).toMatch(/lip-sync/);
    expect(tryItCost('/api/async/video_translate/2.0', { enableLipSync: false })?.price).toMatch(/voice only/);
  });

  it('reads and free tools spend nothing: no question', () => {
    expect(tryItCost('/api/getAsyncResult', { taskId: 'x' })).toBeNull();
    expect(tryItCost('/api/async/voice_clone', { voiceUrl: 'https://example.com/v.wav' })).toBeNull();
  });
});
