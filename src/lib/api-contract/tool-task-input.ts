// A public tool's validated DreamAPI fields as the task the server stores: the feature it runs, the input engines and
// prices read, and the callback. The server stores it (server/routes/public-api-tools.ts); the reference prices its
// examples with it (tool-operations.ts).
import { PUBLIC_TOOLS, type Feature, type PublicTool } from '../product-rules';

export interface ToolTaskInput {
  feature: Feature;
  input: Record<string, unknown>;
  callbackUrl?: string;
}

/** The feature a tool runs; video_translate picks it by enableLipSync. */
export function toolFeature(tool: PublicTool, input: Record<string, unknown>): Feature {
  if (tool === 'video_translate/2.0')
    return input.enableLipSync ? 'video-translate-lip-sync' : 'video-translate-voice-only';
  return PUBLIC_TOOLS[tool];
}

/** `parsed`: the fields PUBLIC_TOOL_BODIES[tool] answered (TTS with its voice already resolved). */
export function toolTaskInput(tool: PublicTool, parsed: Record<string, unknown>): ToolTaskInput {
  const { callbackUrl, ...input } = parsed;
  // Speech to text takes DreamAPI's list of locales too; engines take one language hint: the first.
  if (Array.isArray(input.lan)) input.lan = input.lan[0];
  // Clip tools take `duration` as the playground does; the task stores it as durationS, what engines and prices read.
  if (typeof input.duration === 'number') {
    input.durationS = input.duration;
    delete input.duration;
  }
  return { feature: toolFeature(tool, input), input, callbackUrl: callbackUrl as string | undefined };
}
