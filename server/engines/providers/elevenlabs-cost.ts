// What an ElevenLabs call cost: billed characters from its response headers for speech, else estimated from the text or
// the audio's length at published prices.
import { COST_REPORTS, ELEVENLABS_PRICES } from '../../../src/lib/product-rules';
import { costNumber, estimatedCost, reportedCost, type ProviderCost } from '../provider-cost';

/**
 * The characters ElevenLabs billed for a speech or dialogue answer (character-cost, else x-character-count); null when
 * neither came.
 */
export function billedCharacters(headers: Headers): number | null {
  for (const name of COST_REPORTS.elevenLabsCharacterHeaders) {
    const n = costNumber(headers.get(name));
    if (n !== null) return n;
  }
  return null;
}

/** Speech: the billed characters it reported, else the text's characters at the model's rate (Flash bills half). */
export function speechCost(billed: number | null, model: string, texts: readonly string[]): ProviderCost {
  if (billed !== null) return reportedCost('elevenlabs', billed, 'characters', ELEVENLABS_PRICES.usdPerBilledCharacter);
  const characters = texts.reduce((n, text) => n + [...text].length, 0);
  return estimatedCost(
    'elevenlabs',
    characters * (ELEVENLABS_PRICES.billedPerCharacter[model] ?? 1),
    'characters',
    ELEVENLABS_PRICES.usdPerBilledCharacter,
  );
}

/** Speech to text and dubbing report no cost: the seconds of media at the published price per minute or hour. */
export function mediaSecondsCost(seconds: number | null, usdPerSecond: number): ProviderCost {
  const s = seconds ?? 0;
  return {
    ...estimatedCost('elevenlabs', s, 'media-seconds', usdPerSecond),
    ...(seconds === null ? { usd: null } : {}),
  };
}
