// The operation of each public tool (POST /api/async/<tool>): its body schema, documentation, price and submit errors.
import {
  featurePriceText,
  LENGTH_INPUTS,
  listPrice,
  priceInputOf,
  PUBLIC_TOOLS,
  type PublicTool,
} from '../product-rules';
import type { ErrorKey } from './errors';
import type { Operation, ToolDoc } from './operation-shape';
import { submitData } from './schemas';
import { PUBLIC_TOOL_BODIES } from './public-task-schemas';
import { AUDIO_TOOL_DOCS } from './tool-docs-audio';
import { VISUAL_TOOL_DOCS } from './tool-docs-visual';
import { EXAMPLE_MEDIA_SECONDS, submitExample } from './examples';
import { measuredMedia } from './tool-field-docs';
import { toolFeature, toolTaskInput } from './tool-task-input';

const submitErrors: ErrorKey[] = [
  'illegalParameter',
  'invalidInput',
  'notLoggedIn',
  'insufficientCredits',
  'keyCapReached',
  'forbidden',
  'suspended',
  'conflict',
  'payloadTooLarge',
  'unsupportedMediaType',
  'rateLimited',
  'internal',
  'featureUnavailable',
];

const callbackField = {
  callbackUrl: 'An http(s) URL on a public host; the finished task is POSTed there, signed (see Webhooks)',
};

/** One entry per DreamAPI tool (PUBLIC_TOOLS). */
const TOOL_DOCS: Record<PublicTool, ToolDoc> = { ...AUDIO_TOOL_DOCS, ...VISUAL_TOOL_DOCS };

/** The price in words; a tool whose feature depends on its input (video_translate's enableLipSync) states both. */
function priceSentence(tool: PublicTool): string {
  const [lipSync, voiceOnly] = [true, false].map((enableLipSync) => toolFeature(tool, { enableLipSync }));
  if (lipSync === voiceOnly) return `Price: ${featurePriceText(lipSync!)}.`;
  return `Price: ${featurePriceText(lipSync!)} with lip sync, ${featurePriceText(voiceOnly!)} without.`;
}

/** The fields, the one whose length sets the estimate (LENGTH_INPUTS) saying so. */
function fieldDocs(tool: PublicTool, fields: Record<string, string>): Record<string, string> {
  const measured = LENGTH_INPUTS[PUBLIC_TOOLS[tool]]?.field;
  if (!measured) return fields;
  if (!(measured in fields)) throw new Error(`${tool}: no documentation for the measured field ${measured}`);
  return { ...fields, [measured]: measuredMedia(fields[measured]!) };
}

/** What the example call is charged: its list price, with its media taken as EXAMPLE_MEDIA_SECONDS long. */
function exampleCredits(tool: PublicTool, example: Record<string, unknown>): number {
  const { feature, input } = toolTaskInput(tool, PUBLIC_TOOL_BODIES[tool].parse(example) as Record<string, unknown>);
  return listPrice(feature, { ...priceInputOf(feature, input), seconds: EXAMPLE_MEDIA_SECONDS }).credits;
}

function toolOperation(tool: PublicTool): Operation {
  const doc = TOOL_DOCS[tool];
  return {
    id: doc.id,
    method: 'post',
    path: `/api/async/${tool}`,
    tag: doc.tag,
    summary: doc.summary,
    description: `${doc.description} ${priceSentence(tool)} Answers at once with a taskId; poll getAsyncResult or pass a callbackUrl.`,
    auth: 'bearer',
    request: {
      schema: PUBLIC_TOOL_BODIES[tool],
      contentType: 'application/json',
      example: doc.example,
      fields: { ...fieldDocs(tool, doc.fields), ...callbackField },
    },
    response: { schema: submitData, example: submitExample(exampleCredits(tool, doc.example)) },
    errors: submitErrors,
    submit: true,
  };
}

/** The tool operations in the order of PUBLIC_TOOLS. */
export const TOOL_OPERATIONS: readonly Operation[] = (Object.keys(PUBLIC_TOOLS) as PublicTool[]).map(toolOperation);
