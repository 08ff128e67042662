// Submit-time checks of a task's input: its media links must be the user's own, and the length it is charged on is
// measured (SPEC.md §9).
import { EngineInputError } from '../engines';
import { AppError } from '../http/errors';
import type { Logger } from '../log';
import type { MediaService } from '../media';
import {
  ERROR_CODES,
  PREVIEW,
  INPUT_LENGTH_FEATURES,
  LENGTH_INPUTS,
  PER_SECOND_FEATURES,
  TASK_MESSAGES,
  type Feature,
} from '../../src/lib/product-rules';
import type { ReadInput } from './task-types';

/** Fields people write in (speech text, prompts): a link typed there is words, not an input file. */
const FREE_TEXT = new Set(['text', 'prompt', 'negativePrompt']);

/**
 * Every string in a stored input with its field path, free text left out (inputs are small JSON: flat fields, a few
 * arrays and objects).
 */
function* strings(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* strings(v, `${path}[${i}]`);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (!FREE_TEXT.has(k)) yield* strings(v, path ? `${path}.${k}` : k);
  }
}

function inputError(field: string, message: string): AppError {
  return new AppError(400, ERROR_CODES.invalidInput, `${field}: ${message}`);
}

/** Why a download at submit failed, in words a person can act on (the reader's own errors already are). */
function readProblem(error: unknown): string {
  if (error instanceof EngineInputError) return error.message;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `${TASK_MESSAGES.inputUnreadable}: it took longer than ${PREVIEW.fetchTimeoutMs / 1000} s to download`;
  const cause =
    error instanceof Error && error.cause instanceof Error
      ? error.cause.message
      : error instanceof Error
        ? error.message
        : String(error);
  return `${TASK_MESSAGES.inputUnreadable} (${cause})`;
}

export function createInputChecks(o: { media: MediaService; log: Logger; publicUrl: string; readInput?: ReadInput }) {
  const ownMedia = `${o.publicUrl}/media/`;

  return {
    /**
     * Media links of this server in an input must be the user's own files (another account's upload or result is
     * refused).
     */
    async checkOwnMedia(userId: string, input: Record<string, unknown>): Promise<void> {
      for (const [field, value] of strings(input, '')) {
        if (!value.startsWith(ownMedia)) continue;
        const id = /^([A-Za-z0-9]{1,64})(\.[A-Za-z0-9]+)?(\?|$)/.exec(value.slice(ownMedia.length))?.[1];
        const row = id ? await o.media.byId(id) : undefined;
        if (!row || row.expires_at < Date.now()) throw inputError(field, TASK_MESSAGES.mediaUnknown);
        if (row.user_id !== userId)
          throw new AppError(403, ERROR_CODES.forbidden, `${field}: ${TASK_MESSAGES.mediaNotYours}`);
      }
    },

    /**
     * The input with `seconds` set to the measured length of the file a per-second or input-length feature is charged
     * on (SPEC.md §9), read now through the same reader engines use, so the full estimate is held before the task
     * exists.
     */
    async measured(feature: Feature, input: Record<string, unknown>): Promise<Record<string, unknown>> {
      const spec = LENGTH_INPUTS[feature];
      if (!spec) {
        // A feature charged by length without a length input would be held at 0: refuse to run rather than give it
        // away.
        if (PER_SECOND_FEATURES.includes(feature) || INPUT_LENGTH_FEATURES.includes(feature))
          throw new Error(`no length input is defined for ${feature}`);
        return input;
      }
      const url = input[spec.field];
      if (typeof url !== 'string' || url === '') throw inputError(spec.field, 'is required');
      if (!o.readInput)
        throw new AppError(503, ERROR_CODES.unavailable, `${spec.field}: this server cannot read input media`);
      let seconds: number | null;
      try {
        seconds = (await o.readInput(url, spec.kinds, AbortSignal.timeout(PREVIEW.fetchTimeoutMs))).durationS;
      } catch (error) {
        if (!(error instanceof EngineInputError))
          o.log.warn('input could not be measured at submit', {
            feature,
            error: error instanceof Error ? error.message : String(error),
          });
        throw inputError(spec.field, readProblem(error));
      }
      if (seconds === null || !Number.isFinite(seconds) || seconds <= 0)
        throw inputError(spec.field, TASK_MESSAGES.inputUnmeasured);
      return { ...input, seconds };
    },
  };
}
