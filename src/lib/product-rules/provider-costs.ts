// Provider cost (docs/engines.md "How cost is recorded"): the units a cost is counted in and the published prices used
// where a provider reports nothing.
import { CREDIT_PACKS } from './payments';

/** The providers a task's result can have cost money at. */
export const COST_PROVIDERS = ['fal', 'elevenlabs', 'dreamapi'] as const;
export type CostProvider = (typeof COST_PROVIDERS)[number];

/**
 * What a provider's figure counts: fal's billable units (x-fal-billable-units), ElevenLabs' billed characters
 * (character-cost; Flash bills half a character per character), DreamAPI credits, seconds of audio or video billed per
 * minute, or dollars (a figure computed from a published price).
 */
export const COST_UNITS = ['fal-billing-units', 'characters', 'dreamapi-credits', 'media-seconds', 'usd'] as const;
export type CostUnit = (typeof COST_UNITS)[number];

/**
 * fal list prices per output, from each model's page (https://fal.ai/models/<model>/llms.txt, "Pricing"), read
 * 2026-11-27. fal bills the output; a model missing here has no USD figure (its billable units are still recorded).
 * fal also answers an account's own price per unit at GET https://api.fal.ai/v1/models/pricing (not used yet).
 */
export const FAL_LIST_PRICES: Record<string, { usdPerVideo?: Record<string, number>; usdPerImage?: number }> = {
  // "$0.2 at 480p resolution and 0.4$ at 720p" per video (fal.ai/models/fal-ai/wan-i2v/llms.txt).
  'fal-ai/wan-i2v': { usdPerVideo: { '480p': 0.2, '720p': 0.4 } },
  // Wan 2.1 text-to-video: its own page was not found; the image-to-video price of the same Wan 2.1 model is assumed.
  'fal-ai/wan-t2v': { usdPerVideo: { '480p': 0.2, '720p': 0.4 } },
  // $0.003 per megapixel, rounded up; every image_size we send (FAL_IMAGE_SIZES) is at most 1 MP, so one per image.
  'fal-ai/flux/schnell': { usdPerImage: 0.003 },
};

/**
 * Where providers report a call's cost: fal's billable units on the result's response (the header its billing reads,
 * https://docs.fal.ai/documentation/serverless/publishing-to-marketplace; fal-js does not expose it), ElevenLabs'
 * billed characters on text to speech and dialogue (character-cost; older answers x-character-count), and the
 * credits a DreamAPI-compatible upstream puts on its task (data.task.creditsCharged, else credits, as ours does).
 */
export const COST_REPORTS = {
  falUnitsHeader: 'x-fal-billable-units',
  elevenLabsCharacterHeaders: ['character-cost', 'x-character-count'],
  dreamApiTaskFields: ['creditsCharged', 'credits'],
} as const;

/** What fal's list price gives for a job's outputs; null when no price is recorded for the model. */
export function falListUsd(model: string, made: { resolution?: string; outputs: number }): number | null {
  const price = FAL_LIST_PRICES[model];
  if (price?.usdPerImage !== undefined) return price.usdPerImage * made.outputs;
  const perVideo = made.resolution ? price?.usdPerVideo?.[made.resolution] : undefined;
  return perVideo === undefined ? null : perVideo * made.outputs;
}

/**
 * ElevenLabs API prices (https://elevenlabs.io/pricing/api, as quoted on 2026-06 by developer.puter.com's breakdown,
 * read 2026-11-27): text to speech $0.10 per 1,000 characters on Multilingual v2/v3 and $0.05 on Flash/Turbo, which
 * bill 0.5 character per character, so one billed character (the character-cost header) is $0.0001 on either;
 * Scribe speech to text $0.22 per hour of audio; dubbing $0.33 per minute. Plans with included credits pay less.
 */
export const ELEVENLABS_PRICES = {
  usdPerBilledCharacter: 0.1 / 1000,
  /** Billed characters per character of text, per model (used when the character-cost header is missing). */
  billedPerCharacter: { eleven_flash_v2_5: 0.5, eleven_multilingual_v2: 1, eleven_v3: 1 } as Record<string, number>,
  sttUsdPerSecond: 0.22 / 3600,
  dubbingUsdPerSecond: 0.33 / 60,
} as const;

/**
 * DreamAPI publishes its credit prices (SPEC.md §9, the same table as ours) but no price of a credit in dollars, so
 * DreamAPI costs are kept in its credits; `npm run admin -- costs --rate dreamapi-credits=<usd>` values them.
 */
export const DREAMAPI_USD_PER_CREDIT: number | null = null;

/**
 * What one of our credits brings in, for the margin: the lowest price per credit of any pack (the largest pack's
 * bonus), so the margin shown is the one a buyer of that pack leaves. Granted credits (sign-up, invitations) bring
 * in nothing, so the margin of tasks paid with them is lower than shown.
 */
export const USD_PER_CREDIT = Math.min(...CREDIT_PACKS.map((pack) => pack.priceMinor / 100 / pack.credits));

export const COST_MESSAGES = {
  sinceFormat: (given: string) => `--since must be a date such as 2026-01-31, got "${given}"`,
  rateFormat: (given: string) =>
    `--rate must be <unit>=<usd per unit>, one of ${COST_UNITS.join(', ')}, got "${given}"`,
  none: 'no settled tasks in this period',
} as const;
