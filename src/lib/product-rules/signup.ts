// The sign-up grant: credits every new account starts with (SIGNUP_CREDITS), enough to try each feature once.
import { FEATURES, listPrice, type Feature, type PriceInput } from './pricing';

/**
 * One short try of a feature at its cheapest option: 200 characters of speech, a 10 s clip or upload, one image, a
 * minute of audio to transcribe, a 4 s 512p or 5 s 480p video.
 */
export const TRIAL_RUN: Readonly<PriceInput> = {
  characters: 200,
  seconds: 10,
  count: 1,
  durationS: 4,
  resolution: '512p',
};

/** Credits of one trial run of a feature at the full SPEC.md §9 price (speech to text counts a whole minute). */
export function trialCredits(feature: Feature): number {
  const seconds = feature === 'stt-common' || feature === 'stt-pro' ? 60 : TRIAL_RUN.seconds;
  const resolution = feature.startsWith('wan-') ? '480p' : TRIAL_RUN.resolution;
  return listPrice(feature, { ...TRIAL_RUN, seconds, resolution }).credits;
}

/**
 * SIGNUP_CREDITS when the setting is not given: one trial run of every feature at full price, 231 credits. Whatever
 * a server serves, a new account can try each of its features once (runs on engines with no AI model are free by
 * default, NO_MODEL_PRICE, so on an offline-only server they cost nothing at all).
 */
export const SIGNUP_CREDITS_DEFAULT: number = /* @__PURE__ */ FEATURES.reduce(
  (sum, feature) => sum + trialCredits(feature),
  0,
);

/** The ledger reason of the grant; written once per account, at its creation. */
export const SIGNUP_LEDGER_REASON = 'signup-grant';
