// What running an example costs on this server, priced by the same costHere() as the cost line beside the screen's run
// button, so an example never says another price than the form it fills.
import { priceInputOf, type ExampleScreen, type Feature, type PlaygroundExample } from '../../../lib/product-rules';
import { costHere } from '../../../lib/site/run-cost';
import type { FeatureMap } from '../../../lib/stores/offer';

/** The feature a screen's example runs, from the draft fields it fills. */
const FEATURE_OF: Record<ExampleScreen, (inputs: Record<string, unknown>) => Feature> = {
  speech: (i) => (i.quality === 'pro' ? 'tts-pro' : 'tts-common'),
  voiceClone: () => 'voice-clone',
  dialogue: () => 'dialogue',
  image: () => 'image-to-video',
  text: () => 'text-to-video',
  character: () => 'character-to-video',
  translate: (i) => (i.lipSync === false ? 'video-translate-voice-only' : 'video-translate-lip-sync'),
  lipSync: () => 'talking-face',
  alClothesChanger: () => 'tryon-clothes',
};

/** A clip option of the video screens, "4s-512p": its length and resolution, which the price reads. */
function clipOf(option: unknown): { durationS?: number; resolution?: string } {
  const m = typeof option === 'string' ? /^(\d+)s-(.+)$/.exec(option) : null;
  return m ? { durationS: Number(m[1]), resolution: m[2] } : {};
}

/**
 * What running the example costs here, in words: "12 credits", "free here", or a per-second rate for a run priced
 * on the length of its upload.
 */
export function exampleCost(example: PlaygroundExample, features: FeatureMap | null): string {
  const feature = FEATURE_OF[example.screen](example.inputs);
  const { inputs } = example;
  // Speech and dialogue drafts name their text as the task does; the video screens hold a clip option.
  const measures = 'option' in inputs ? clipOf(inputs.option) : priceInputOf(feature, inputs);
  const credits = costHere(feature, measures, features);
  if (credits === 0) return 'free here';
  if (credits === null) {
    const rate = costHere(feature, { seconds: 1 }, features);
    return `${rate ?? '—'} ${rate === 1 ? 'credit' : 'credits'} per second of the upload`;
  }
  return `${credits} ${credits === 1 ? 'credit' : 'credits'}`;
}
