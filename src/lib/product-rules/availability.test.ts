// The price notes of the features answer, and the sign-up grant's default (a run's cost: pricing/run-price.test.ts).
import { describe, expect, it } from 'vitest';
import { featureNote, featurePriceText } from './availability';
import { FEATURE_MESSAGES } from './feature-messages';
import { ENGINE_LABELS } from './engines';
import { FEATURES } from './pricing';
import { SIGNUP_CREDITS_DEFAULT, trialCredits } from './signup';

describe('price notes', () => {
  it('says a free no-model run is free, in the words the cost preview uses', () => {
    expect(FEATURE_MESSAGES.free(ENGINE_LABELS.preview)).toBe('Free here: preview engine (no AI model)');
    expect(FEATURE_MESSAGES.free(ENGINE_LABELS.espeak)).toBe('Free here: eSpeak NG (no AI model)');
    expect(featureNote('text-to-video', 'preview', { usesModel: false, noModelPrice: 'free' })).toBe(
      'Free here: preview engine (no AI model)',
    );
  });

  it('gives the §9 price otherwise, and says when nothing serves the feature', () => {
    expect(featureNote('tts-pro', 'elevenlabs', { usesModel: true, noModelPrice: 'free' })).toBe(
      'ElevenLabs: 1 credit per 200 characters',
    );
    expect(featureNote('tryon-clothes', null, { usesModel: false, noModelPrice: 'free' })).toBe(
      'Not available on this server',
    );
    expect(featurePriceText('text-to-video')).toBe('20 to 180 credits a clip');
    expect(featurePriceText('wan-image-to-video')).toBe('15 to 30 credits a clip');
    expect(featurePriceText('talking-image')).toBe('2 credits per second');
    expect(featurePriceText('voice-clone')).toBe('Free');
  });
});

describe('SIGNUP_CREDITS default', () => {
  it('is one short trial of every feature at full price: 231 credits', () => {
    expect(SIGNUP_CREDITS_DEFAULT).toBe(FEATURES.reduce((n, f) => n + trialCredits(f), 0));
    expect(SIGNUP_CREDITS_DEFAULT).toBe(231);
  });

  it('covers the dearest single trials: a 10 s lip-synced translation, a try-on, a 4 s clip', () => {
    expect(trialCredits('video-translate-lip-sync')).toBe(30);
    expect(trialCredits('tryon-clothes')).toBe(25);
    expect(trialCredits('text-to-video')).toBe(20);
    expect(trialCredits('wan-text-to-video')).toBe(15);
    expect(trialCredits('stt-pro')).toBe(2);
  });
});
