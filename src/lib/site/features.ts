// The public features answer in the browser (which features this server serves, and at what price), from the page's one
// offer answer.
import { PUBLIC_TOOLS, type Feature } from '../product-rules';
import { forgetOffer, loadOffer, type FeatureMap } from '../stores/offer';

export { FEATURES_PATH, type FeatureMap } from '../stores/offer';

/**
 * The features each product page runs (SPEC.md §2 playground children); a product can be tried when any of them is
 * served.
 */
export const PRODUCT_FEATURES: Readonly<Record<string, readonly Feature[]>> = {
  speech: ['tts-common', 'tts-pro'],
  voiceClone: ['voice-clone'],
  dialogue: ['dialogue'],
  dialogueContent: ['dialogue'],
  imageToVideo: ['image-to-video'],
  textToVideo: ['text-to-video'],
  characterToVideo: ['character-to-video', 'talking-image'],
  videoTranslate: ['video-translate-lip-sync', 'video-translate-voice-only'],
  lipSync: ['talking-face'],
  alClothesChanger: ['tryon-clothes'],
};

/**
 * The features a public API operation runs (`/api/async/<tool>`); none for the calls that run nothing (results,
 * credits).
 */
export function operationFeatures(path: string): Feature[] {
  const tool = path.startsWith('/api/async/') ? path.slice('/api/async/'.length) : '';
  if (!Object.hasOwn(PUBLIC_TOOLS, tool)) return [];
  const feature = (PUBLIC_TOOLS as Record<string, Feature>)[tool]!;
  // video_translate/2.0 dubs with lip sync unless enableLipSync is false.
  return feature === 'video-translate-lip-sync'
    ? ['video-translate-lip-sync', 'video-translate-voice-only']
    : [feature];
}

/** The value of a `data-features` attribute: the features a page element stands for, separated by spaces. */
export function featuresAttribute(features: readonly Feature[] | undefined): string | undefined {
  return features && features.length > 0 ? features.join(' ') : undefined;
}

export function isServed(map: FeatureMap, features: readonly Feature[]): boolean {
  return features.some((feature) => map.get(feature)?.available);
}

/** The features of the page's one offer answer (src/lib/stores/offer.ts); rejects when the server cannot be asked. */
export async function loadFeatures(): Promise<FeatureMap> {
  return (await loadOffer()).features;
}

/** Forgets the answer, so the next loadFeatures() asks again (tests that change the server between cases). */
export function forgetFeatures(): void {
  forgetOffer();
}
