// What a Try it request on the reference will cost, from its edited body, priced as the server prices a submit (SPEC.md
// §9).
import {
  PUBLIC_TOOLS,
  featurePrice,
  listPrice,
  priceInputOf,
  priceItem,
  type Feature,
  type PublicTool,
} from '../product-rules';

const SUBMIT_PREFIX = '/api/async/';

export interface TryCost {
  /** Credits the request holds, or null when they depend on the length of a media file not known here. */
  credits: number | null;
  /** The price-table row: its name and price, e.g. "Text-to-video 4s 720p: 60 credits". */
  price: string;
}

const isTool = (name: string): name is PublicTool => Object.hasOwn(PUBLIC_TOOLS, name);

/** The feature a submit runs, as the server picks it (video_translate by enableLipSync, true by default). */
function featureOf(tool: PublicTool, body: Record<string, unknown>): Feature {
  if (tool === 'video_translate/2.0')
    return body.enableLipSync === false ? 'video-translate-voice-only' : 'video-translate-lip-sync';
  return PUBLIC_TOOLS[tool];
}

/** The cost of sending `body` to `path`, or null for a call that spends no credits (reads, free tools). */
export function tryItCost(path: string, body: unknown): TryCost | null {
  const tool = path.startsWith(SUBMIT_PREFIX) ? path.slice(SUBMIT_PREFIX.length) : '';
  if (!isTool(tool)) return null;
  const input: Record<string, unknown> = body && typeof body === 'object' && !Array.isArray(body) ? { ...body } : {};
  // Clip tools take `duration`; the task stores it as durationS, which prices read (as server/routes/public-api.ts
  // does).
  if (typeof input.duration === 'number') input.durationS = input.duration;
  const feature = featureOf(tool, input);
  const measures = priceInputOf(feature, input);
  const item = priceItem(featurePrice(feature, measures).itemId);
  if (!item || item.charge.kind === 'free') return null;
  const price = `${[item.name, item.resolution].filter(Boolean).join(' ')}: ${item.priceText}`;
  if (item.charge.kind === 'perSecond' || item.charge.kind === 'perMinute') return { credits: null, price };
  try {
    return { credits: listPrice(feature, measures).credits, price };
  } catch {
    // A body the server will refuse (e.g. a count that is not a number): the price row still says what it costs.
    return { credits: null, price };
  }
}
