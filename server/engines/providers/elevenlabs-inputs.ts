// Our stored task inputs as ElevenLabs takes them: required text fields, language codes, input files as uploads; and
// the progress a task shows between sending and the result.
import { ELEVENLABS_PROGRESS, ELEVENLABS_PROVIDER } from './elevenlabs-constants';
import { primaryLanguage } from '../../../src/lib/product-rules';
import { EngineInputError, type InputMedia } from '../types';

/** A task's stored input. */
export type Input = Record<string, unknown>;

/** A required text field of a stored input; its absence is the input's fault. */
export function requiredText(input: Input, field: string, feature: string): string {
  const value = input[field];
  if (typeof value !== 'string' || value.trim() === '')
    throw new EngineInputError(`${ELEVENLABS_PROVIDER} needs ${field} for ${feature}`);
  return value;
}

/** ISO 639 code ElevenLabs expects from what users send ("en", "en-US", "pt_BR" → "en", "en", "pt"). */
export function languageCode(lan: string): string {
  const s = lan.trim().toLowerCase();
  return /^[a-z]{2,3}([-_][a-z0-9]+)*$/.test(s) ? primaryLanguage(s) : s;
}

/**
 * An input file as the official client uploads it (core.file.Uploadable), named by its type so ElevenLabs can tell the
 * container.
 */
export function filePart(media: InputMedia, name: string): { data: Buffer; filename: string; contentType: string } {
  const ext = media.mime.split('/')[1]?.replace('mpeg', 'mp3').replace('quicktime', 'mov') ?? 'bin';
  return { data: media.data, filename: `${name}.${ext}`, contentType: media.mime };
}

/** Progress for a share (0–1) of the work done between sending and the result. */
export function progressShare(share: number): number {
  const { submitted, beforeResult } = ELEVENLABS_PROGRESS;
  return submitted + Math.round(Math.min(1, Math.max(0, share)) * (beforeResult - submitted));
}
