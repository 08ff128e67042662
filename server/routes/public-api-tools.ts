// A public tool call's DreamAPI fields turned into the feature it runs and the task input stored, and its
// Idempotency-Key.
import type { Context } from 'hono';
import { AppError } from '../http/errors';
import { IDEMPOTENCY, voiceById, voiceForLanguage, VOICES, type PublicTool } from '../../src/lib/product-rules';
import { dreamTts, PUBLIC_TOOL_BODIES, toolTaskInput, type ToolTaskInput } from '../../src/lib/api-contract';
import { body, ILLEGAL_PARAMETER } from './public-api-envelope';

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

/**
 * Turns a tool's DreamAPI fields (validated by PUBLIC_TOOL_BODIES) into a feature and its stored input; the task
 * service measures the input a per-second tool is charged on (src/lib/product-rules/limits.ts LENGTH_INPUTS).
 */
export function toolInput(tool: PublicTool, raw: unknown): ToolTaskInput {
  const parsed = (
    tool === 'do_tts_common' || tool === 'do_tts_pro' ? ttsInput(raw) : body(PUBLIC_TOOL_BODIES[tool], raw)
  ) as Record<string, unknown>;
  return toolTaskInput(tool, parsed);
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
