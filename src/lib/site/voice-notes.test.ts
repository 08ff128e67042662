// The reference page of a speech call says which languages its serving engine speaks when it speaks only some
// (DreamAPI).
// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { FeatureState } from '../api/types';
import { ENGINE_LABELS, type Feature } from '../product-rules';
import { applyFeatureMarks } from './features-marks';
import type { FeatureMap } from './features';

const state = (feature: Feature, engine: 'dreamapi' | 'espeak', languages?: string[]): FeatureState => ({
  feature,
  available: true,
  engine,
  engineLabel: ENGINE_LABELS[engine],
  usesModel: engine === 'dreamapi',
  noModelPrice: 'free',
  priceNote: '',
  ...(languages ? { languages } : {}),
});

afterEach(() => {
  document.body.innerHTML = '';
});

describe('voice notes on reference pages', () => {
  it('an engine that speaks English only is named with the languages and voices available; other languages are said to be unavailable there', () => {
    document.body.innerHTML = '<header data-features="tts-common"><p data-voice-note="tts-common" hidden></p></header>';
    const map: FeatureMap = new Map([['tts-common', state('tts-common', 'dreamapi', ['en'])]]);
    applyFeatureMarks(map);
    const note = document.querySelector<HTMLElement>('[data-voice-note]')!;
    expect(note.hidden).toBe(false);
    expect(note.textContent).toBe(
      'On this server DreamAPI serves this call in English only: other languages are not available on that engine, and a voice in one is refused with 400 naming audioId. Voices available: en-us-female-1, en-us-male-1, en-gb-female-1, en-gb-male-1.',
    );
  });

  it('says nothing when the serving engine speaks every voice', () => {
    document.body.innerHTML = '<header data-features="tts-common"><p data-voice-note="tts-common" hidden></p></header>';
    applyFeatureMarks(new Map([['tts-common', state('tts-common', 'espeak')]]));
    const note = document.querySelector<HTMLElement>('[data-voice-note]')!;
    expect(note.hidden).toBe(true);
    expect(note.textContent).toBe('');
  });
});
