// The operation of each public tool (POST /api/async/<tool>): its body schema, documentation and submit errors.
import { PUBLIC_TOOLS, type PublicTool } from '../product-rules';
import type { ErrorKey } from './errors';
import type { Operation, ToolDoc } from './operation-shape';
import { submitData } from './schemas';
import { PUBLIC_TOOL_BODIES } from './public-task-schemas';
import { AUDIO_TOOL_DOCS } from './tool-docs-audio';
import { VISUAL_TOOL_DOCS } from './tool-docs-visual';
import { submitExample } from './examples';

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

function toolOperation(tool: PublicTool): Operation {
  const doc = TOOL_DOCS[tool];
  return {
    id: doc.id,
    method: 'post',
    path: `/api/async/${tool}`,
    tag: doc.tag,
    summary: doc.summary,
    description: `${doc.description} Answers at once with a taskId; poll getAsyncResult or pass a callbackUrl.`,
    auth: 'bearer',
    request: {
      schema: PUBLIC_TOOL_BODIES[tool],
      contentType: 'application/json',
      example: doc.example,
      fields: { ...doc.fields, ...callbackField },
    },
    response: { schema: submitData, example: submitExample(doc.credits) },
    errors: submitErrors,
    submit: true,
  };
}

/** The tool operations in the order of PUBLIC_TOOLS. */
export const TOOL_OPERATIONS: readonly Operation[] = (Object.keys(PUBLIC_TOOLS) as PublicTool[]).map(toolOperation);
