// Which advanced settings (speed, pitch, aspect ratio, seed, negative prompt) the engine serving a feature honours, and the refusal when a run asks for another.
import { givenRunOptions, RUN_OPTION_MESSAGES, type Feature, type RunOption } from '../../src/lib/spec';
import type { Engine } from './types';

/** The settings `engine` honours for `feature`; none when it lists none. */
export function engineOptions(engine: Engine | undefined, feature: Feature): readonly RunOption[] {
  return engine?.options?.[feature] ?? [];
}

/**
 * Null when every setting in `input` is honoured by the first engine of the feature's chain (the one that serves it,
 * as GET task/v1/features says), else the message naming the first one that is not. With no engine available the
 * submit is refused anyway, with the message naming what to configure, so nothing is said here.
 */
export function runOptionProblem(chain: readonly Engine[], feature: Feature, input: Record<string, unknown>): string | null {
  const engine = chain[0];
  if (!engine) return null;
  const supported = engineOptions(engine, feature);
  const refused = givenRunOptions(input).find((option) => !supported.includes(option));
  return refused ? RUN_OPTION_MESSAGES.unsupported(refused, feature, engine.name, supported) : null;
}
