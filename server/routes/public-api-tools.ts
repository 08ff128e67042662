// A public tool call's DreamAPI fields turned into the feature it runs and the task input stored, and its
// Idempotency-Key.
import type { Context } from 'hono';
import { AppError } from '../http/errors';
import {
  IDEMPOTENCY,
  PUBLIC_TOOLS,
  voiceById,
  voiceForLanguage,
  VOICES,
  type Feature,
  type PublicTool,
} from '../../src/lib/product-rules';
import { dreamTts, PUBLIC_TOOL_BODIES } from '../../src/lib/api-contract';
import { body, ILLEGAL_PARAMETER } from './public-api-envelope';

type ToolInput = { feature: Feature; input: Record<string, unknown>; callbackUrl?: string };

/** TTS names a voice by our id (audioId) or by a language (lan): stored as one voice id. */
function ttsInput(raw: unknown): Record<string, unknown> {
  const b = body(dreamTts, raw);
  const voice = b.audioId ? voiceById(b.audioId) : voiceForLanguage(b.lan ?? 'en-US');
  if (!voice) {
    const problem = b.audioId
      ? `audioId: unknown voice; voices are ${VOICES.map((v) => v.id).join(', ')}`
      : `lan: no voice for ${b.lan}; languages are ${[...new Set(VOICES.map((v) => v.language))].join(', ')}`;
    throw new AppError(400, ILLEGAL_PARAMETER, `Illegal parameter: ${problem}`);
  }
  return {
    text: b.text,
    voice: voice.id,
    ...(b.speed ? { speed: b.speed } : {}),
    ...(b.pitch !== undefined ? { pitch: b.pitch } : {}),
    callbackUrl: b.callbackUrl,
  };
}

/** The feature a tool runs; video_translate picks it by enableLipSync. */
function featureOf(tool: PublicTool, input: Record<string, unknown>): Feature {
  if (tool === 'video_translate/2.0')
    return input.enableLipSync ? 'video-translate-lip-sync' : 'video-translate-voice-only';
  return PUBLIC_TOOLS[tool];
}

/**
 * Turns a tool's DreamAPI fields (validated by PUBLIC_TOOL_BODIES) into a feature and its stored input; the task
 * service measures the input a per-second tool is charged on (src/lib/product-rules/limits.ts LENGTH_INPUTS).
 */
export function toolInput(tool: PublicTool, raw: unknown): ToolInput {
  const parsed = (
    tool === 'do_tts_common' || tool === 'do_tts_pro' ? ttsInput(raw) : body(PUBLIC_TOOL_BODIES[tool], raw)
  ) as Record<string, unknown>;
  const { callbackUrl, ...input } = parsed;
  // Speech to text takes DreamAPI's list of locales too; engines take one language hint: the first.
  if (Array.isArray(input.lan)) input.lan = input.lan[0];
  // Clip tools take `duration` as the playground does; the task stores it as durationS, what engines and prices read.
  if (typeof input.duration === 'number') {
    input.durationS = input.duration;
    delete input.duration;
  }
  return { feature: featureOf(tool, input), input, callbackUrl: callbackUrl as string | undefined };
}

export function idempotencyKey(c: Context): string | null {
  const key = c.req.header('idempotency-key');
  if (key === undefined) return null;
  if (key.length === 0 || key.length > IDEMPOTENCY.maxKeyLength || !/^[\x21-\x7e]+$/.test(key)) {
    throw new AppError(
      400,
      ILLEGAL_PARAMETER,
      `Illegal parameter: Idempotency-Key must be 1 to ${IDEMPOTENCY.maxKeyLength} visible ASCII characters`,
    );
  }
  return key;
}
