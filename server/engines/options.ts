// What the engine serving a feature offers (advanced settings; the languages of its voices) and the refusal when a run
// asks for more.
import {
  engineLabel,
  givenRunOptions,
  RUN_OPTION_MESSAGES,
  voiceById,
  VOICE_MESSAGES,
  VOICES,
  voiceServed,
  type Feature,
  type RunOption,
} from '../../src/lib/product-rules';
import type { Engine } from './types';

/** The settings `engine` honours for `feature`; none when it lists none. */
export function engineOptions(engine: Engine | undefined, feature: Feature): readonly RunOption[] {
  return engine?.options?.[feature] ?? [];
}

/** The languages (primary subtags) whose voices `engine` speaks for `feature`; null when it speaks every voice. */
export function engineLanguages(engine: Engine | undefined, feature: Feature): readonly string[] | null {
  return engine?.languages?.[feature] ?? null;
}

/** The voice ids a stored input names: `voice` (speech) and the values of `voices` (dialogue speakers). */
function voicesOf(input: Record<string, unknown>): string[] {
  const ids = typeof input.voice === 'string' ? [input.voice] : [];
  if (input.voices && typeof input.voices === 'object')
    ids.push(...Object.values(input.voices).filter((v): v is string => typeof v === 'string'));
  return ids;
}

/** Null when the engine can speak every voice of `input`, else the refusal naming the first it cannot. */
function voiceProblem(engine: Engine, feature: Feature, input: Record<string, unknown>): string | null {
  const languages = engineLanguages(engine, feature);
  if (!languages) return null;
  const refused = voicesOf(input)
    .map(voiceById)
    .find((voice) => voice !== undefined && !voiceServed(voice, languages));
  if (!refused) return null;
  return VOICE_MESSAGES.notOnEngine(
    refused,
    feature,
    engineLabel(engine.name),
    VOICES.filter((v) => voiceServed(v, languages)),
  );
}

/**
 * Null when the first engine of the feature's chain (the one that serves it, as GET task/v1/features says) can speak
 * the input's voice and honours every setting in it, else the message naming what it cannot (a 400 at submit, so no
 * provider is sent a request it refuses). With no engine available the submit is refused anyway, with the message
 * naming what to configure, so nothing is said here.
 */
export function runOptionProblem(
  chain: readonly Engine[],
  feature: Feature,
  input: Record<string, unknown>,
): string | null {
  const engine = chain[0];
  if (!engine) return null;
  const voice = voiceProblem(engine, feature, input);
  if (voice) return voice;
  const supported = engineOptions(engine, feature);
  const refused = givenRunOptions(input).find((option) => !supported.includes(option));
  return refused ? RUN_OPTION_MESSAGES.unsupported(refused, feature, engine.name, supported) : null;
}
