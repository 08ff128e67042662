// Advanced settings of a run (speech speed and pitch; video aspect ratio, seed, negative prompt): names, ranges,
// defaults, labels.

import { SPEECH_DEFAULT_WPM } from './voices';

/** Frame shapes a video run may ask for (width:height); the resolution names the short side. */
export const VIDEO_ASPECT_RATIOS = ['16:9', '9:16', '1:1'] as const;
export type VideoAspectRatio = (typeof VIDEO_ASPECT_RATIOS)[number];

/**
 * Every advanced setting a run may carry, as the same field name in the playground and the public API. An engine
 * lists the ones it honours per feature (GET /api-playground/task/v1/features `options`); the playground shows only
 * those, and a submit that gives one the serving engine does not honour is refused rather than silently ignored.
 */
export const RUN_OPTIONS = {
  /** Words per minute (SPEECH_DEFAULT_WPM is a normal pace). */
  speed: { label: 'Speed', hint: 'words per minute', min: 80, max: 450, step: 5, default: SPEECH_DEFAULT_WPM },
  /** eSpeak NG's pitch scale: 0 lowest, 99 highest, 50 the voice's own. */
  pitch: { label: 'Pitch', hint: '0 low, 50 natural, 99 high', min: 0, max: 99, step: 1, default: 50 },
  aspectRatio: {
    label: 'Aspect ratio',
    hint: 'shape of the frame',
    values: VIDEO_ASPECT_RATIOS,
    default: '16:9' as VideoAspectRatio,
  },
  /** The same seed and inputs give the same result on engines that honour it. */
  seed: { label: 'Seed', hint: 'same seed, same result', min: 0, max: 2_147_483_647 },
  negativePrompt: { label: 'Negative prompt', hint: 'what the video should avoid', maxChars: 500 },
} as const;

export type RunOption = keyof typeof RUN_OPTIONS;

/**
 * The settings a person changed from their defaults (a form's draft, a call's fields); one left out is the engine's own
 * default.
 */
export interface RunSettings {
  speed?: number;
  pitch?: number;
  aspectRatio?: VideoAspectRatio;
  seed?: number;
  negativePrompt?: string;
}
export const RUN_OPTION_NAMES = Object.keys(RUN_OPTIONS) as RunOption[];

export function isRunOption(value: unknown): value is RunOption {
  return typeof value === 'string' && value in RUN_OPTIONS;
}

/** The advanced settings given in a task's stored input (fields present and not empty). */
export function givenRunOptions(input: Record<string, unknown>): RunOption[] {
  return RUN_OPTION_NAMES.filter((name) => input[name] !== undefined && input[name] !== null && input[name] !== '');
}

/** Why a run is refused: it asks for a setting the engine serving its feature here does not honour. */
export const RUN_OPTION_MESSAGES = {
  unsupported: (option: RunOption, feature: string, engine: string, supported: readonly RunOption[]) =>
    `${option}: the engine serving ${feature} on this server (${engine}) does not support it; ${supported.length ? `it supports ${supported.join(', ')}` : 'leave the advanced settings out'}`,
} as const;
