// A playground run as the public API call that does the same (tool and JSON body), and that call as a reference sample
// spec.
import { PUBLIC_TOOLS, type PublicTool } from '../../../lib/product-rules';
import type { SampleSpec } from '../../../lib/reference/samples';

/** What the run makes, so the SDK sample prints the right part of the result. */
export type CallOutput = 'audio' | 'video' | 'image' | 'clone';

/** POST /api/async/<tool> with this body is the run the form would start now (docs/public-api.md). */
export interface ApiCall {
  tool: PublicTool;
  body: Record<string, unknown>;
  output: CallOutput;
}

/** Stands in for a file not uploaded yet: the sample stays runnable once it is replaced by a real URL. */
export const fileUrlPlaceholder = (what: string) => `https://example.com/your-${what}`;

/** The body without empty fields (an unset optional field is left out, as the form sends it). */
export function cleanBody(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

export function apiCall(tool: PublicTool, body: Record<string, unknown>, output: CallOutput): ApiCall {
  return { tool, body: cleanBody(body), output };
}

export const callPath = (call: Pick<ApiCall, 'tool'>) => `/api/async/${call.tool}`;

/** The call in the shape the reference's sample generator takes (src/lib/reference/samples.ts). */
export function sampleSpec(call: ApiCall): SampleSpec {
  return {
    method: 'post',
    path: callPath(call),
    auth: 'bearer',
    contentType: 'application/json',
    example: call.body,
    envelope: true,
  };
}

/** The feature the server runs for the call (video_translate picks it by enableLipSync). */
export function callFeature(call: ApiCall) {
  if (call.tool === 'video_translate/2.0')
    return call.body.enableLipSync === false ? 'video-translate-voice-only' : 'video-translate-lip-sync';
  return PUBLIC_TOOLS[call.tool];
}
