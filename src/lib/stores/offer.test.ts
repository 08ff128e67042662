// The offer store's readings: what a page may say about payments, sign-in methods and AI, including for a server whose
// answer predates payments and signIn (the original product's), where pages keep their old behaviour.
import { describe, expect, it } from 'vitest';
import type { FeatureState } from '../api/types';
import { paymentsOff, servesAnyModel, signInOffered, type Offer } from './offer';

const state = (over: Partial<FeatureState>): FeatureState => ({
  feature: 'tts-common',
  available: true,
  engine: 'espeak',
  engineLabel: 'eSpeak NG (no AI model)',
  usesModel: false,
  noModelPrice: 'free',
  priceNote: 'Free here: eSpeak NG (no AI model)',
  ...over,
});
const offer = (over: Partial<Offer>, states: FeatureState[] = [state({})]): Offer => ({
  features: new Map(states.map((s) => [s.feature, s])),
  payments: null,
  signIn: null,
  ...over,
});

describe('offer readings', () => {
  it('say payments are off only when the server said so', () => {
    expect(paymentsOff(offer({ payments: { enabled: false } }))).toBe(true);
    expect(paymentsOff(offer({ payments: { enabled: true } }))).toBe(false);
    expect(paymentsOff(offer({}))).toBe(false);
    expect(paymentsOff(null)).toBe(false);
  });

  it('offer a provider once the answer is here and unless it said the provider is not configured', () => {
    expect(signInOffered(null, 'google')).toBe(false);
    expect(signInOffered(offer({ signIn: { email: true, google: false, github: true } }), 'google')).toBe(false);
    expect(signInOffered(offer({ signIn: { email: true, google: false, github: true } }), 'github')).toBe(true);
    expect(signInOffered(offer({}), 'google')).toBe(true);
  });

  it('allow "with AI" only when a served feature may use a model', () => {
    expect(servesAnyModel(offer({}))).toBe(false);
    expect(
      servesAnyModel(offer({}, [state({}), state({ feature: 'image-generation', available: false, usesModel: true })])),
    ).toBe(false);
    expect(servesAnyModel(offer({}, [state({ feature: 'tts-pro', engine: 'elevenlabs', usesModel: true })]))).toBe(
      true,
    );
  });
});
