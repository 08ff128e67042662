// Builds the OpenAPI 3.1 document from the operation metadata and the zod schemas the server validates with.
import { z } from 'zod';
import { RATE_LIMITS, WEBHOOKS } from '../product-rules';
import { ERROR_CATALOGUE, type ErrorEntry, type ErrorKey } from './errors';
import { IDEMPOTENCY_HEADER, OPERATIONS, type Operation, type Tag } from './operations';
import { errorEnvelope, webhookEvent } from './schemas';

export type JsonSchema = { [key: string]: unknown };
// OpenAPI objects are plain JSON; a loose type keeps the builder short and the consumers honest (they read JSON).
export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: Array<{ url: string }>;
  tags: Array<{ name: Tag; description: string }>;
  paths: Record<string, Record<string, OpenApiOperation>>;
  webhooks: Record<string, Record<string, unknown>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, JsonSchema> };
};
export type OpenApiOperation = {
  operationId: string;
  tags: Tag[];
  summary: string;
  description: string;
  security: Array<Record<string, string[]>>;
  parameters: Array<Record<string, unknown>>;
  requestBody?: { required: true; content: Record<string, { schema: JsonSchema; example: unknown }> };
  responses: Record<
    string,
    {
      description: string;
      headers?: Record<string, unknown>;
      /**
       * text/event-stream answers name the schema of each event's data in x-event-data (OpenAPI 3.1 has no field for
       * it).
       */
      content?: Record<string, { schema: JsonSchema; example?: unknown; 'x-event-data'?: JsonSchema }>;
      'x-error-codes'?: number[];
    }
  >;
};

export const API_VERSION = '1.0.0';

const TAGS: Array<{ name: Tag; description: string }> = [
  { name: 'Speech', description: 'Text to speech and voice cloning' },
  { name: 'Video', description: 'Talking faces, lip sync, translation and generated clips' },
  { name: 'Image', description: 'Image tools' },
  { name: 'Tasks', description: 'Results and cancellation of submitted tasks' },
  { name: 'Account', description: 'Credits and the webhook secret' },
  { name: 'Uploads', description: 'The three-step upload of input media' },
  { name: 'Meta', description: 'This description' },
];

/** JSON Schema (2020-12, what OpenAPI 3.1 uses) of a request body as clients send it. */
export function requestSchema(schema: z.ZodType, fields: Record<string, string> = {}): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, description] of Object.entries(fields)) {
    if (properties[name]) properties[name] = { ...properties[name], description };
  }
  return json;
}

/** JSON Schema of an answer as the server sends it. */
export function responseSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

const envelope = (data: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: { code: { const: 0 }, message: { const: 'success' }, msg: { const: 'success' }, data },
  required: ['code', 'message', 'msg', 'data'],
});

const rateLimitHeaders = {
  'X-RateLimit-Limit': {
    description: `Requests allowed per window for this key (${RATE_LIMITS.publicPerWindow} per minute by default)`,
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': { description: 'Requests left in this window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix seconds when the window restarts', schema: { type: 'integer' } },
};

function errorResponses(keys: ErrorKey[]): OpenApiOperation['responses'] {
  const byStatus = new Map<number, ErrorEntry[]>();
  for (const key of keys) {
    const entry: ErrorEntry = ERROR_CATALOGUE[key];
    byStatus.set(entry.http, [...(byStatus.get(entry.http) ?? []), entry]);
  }
  const out: OpenApiOperation['responses'] = {};
  for (const [status, entries] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      description: entries.map((e) => `${e.code} ${e.title}: ${e.when}`).join(' '),
      ...(status === 429
        ? {
            headers: {
              'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } },
              ...rateLimitHeaders,
            },
          }
        : {}),
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/ErrorEnvelope' },
          example: { code: entries[0]!.code, message: entries[0]!.title, msg: entries[0]!.title, data: null },
        },
      },
      'x-error-codes': entries.map((e) => e.code),
    };
  }
  return out;
}

/** A Server-Sent Events GET: its query fields and Last-Event-ID as parameters, and the stream as its 200 answer. */
function streamParts(
  op: Operation & { stream: NonNullable<Operation['stream']> },
): Pick<OpenApiOperation, 'parameters' | 'responses'> {
  const query = requestSchema(op.stream.query, op.stream.fields);
  const required = new Set((query.required ?? []) as string[]);
  const parameters = Object.entries((query.properties ?? {}) as Record<string, JsonSchema>).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return { name, in: 'query', required: required.has(name), description, schema: rest };
  });
  const resume = 'The id of the last event received, to resume after a reconnect';
  parameters.push({
    name: 'Last-Event-ID',
    in: 'header',
    required: false,
    description: resume,
    schema: { type: 'string' },
  });
  const data = op.response.schema ? responseSchema(op.response.schema) : {};
  return {
    parameters,
    responses: {
      '200': {
        description: `A text/event-stream: \`${op.stream.event}\` events whose data is JSON (x-event-data), each with an id; comment lines as heartbeats`,
        headers: rateLimitHeaders,
        content: {
          'text/event-stream': { schema: { type: 'string' }, example: op.stream.wireExample, 'x-event-data': data },
        },
      },
      ...errorResponses(op.errors),
    },
  };
}

function operationObject(op: Operation): OpenApiOperation {
  const security = op.auth === 'bearer' ? [{ bearerAuth: [] }] : [];
  const common = { operationId: op.id, tags: [op.tag], summary: op.summary, description: op.description, security };
  if (op.stream) return { ...common, ...streamParts({ ...op, stream: op.stream }) };
  const parameters: Array<Record<string, unknown>> = [];
  if (op.submit)
    parameters.push({
      name: IDEMPOTENCY_HEADER.name,
      in: 'header',
      required: false,
      description: IDEMPOTENCY_HEADER.description,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  const success = op.response.schema
    ? {
        schema: envelope(responseSchema(op.response.schema)),
        example: { code: 0, message: 'success', msg: 'success', data: op.response.example },
      }
    : { schema: { $ref: 'https://spec.openapis.org/oas/3.1/schema/2022-10-07' }, example: op.response.example };
  return {
    operationId: op.id,
    tags: [op.tag],
    summary: op.summary,
    description: op.description,
    security: op.auth === 'bearer' ? [{ bearerAuth: [] }] : [],
    parameters,
    ...(op.request
      ? {
          requestBody: {
            required: true as const,
            content: {
              [op.request.contentType]: {
                schema: requestSchema(op.request.schema, op.request.fields),
                example: op.request.example,
              },
            },
          },
        }
      : {}),
    responses: {
      '200': {
        description: op.response.schema ? 'Success' : 'The document',
        ...(op.id === 'openApiDocument' ? {} : { headers: rateLimitHeaders }),
        content: { 'application/json': success },
      },
      ...errorResponses(op.errors),
    },
  };
}

export interface DocumentOptions {
  /** Base URL of the API host; relative "/" when the document is served by that host. */
  serverUrl?: string;
}

export function buildOpenApiDocument(options: DocumentOptions = {}): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const op of OPERATIONS) (paths[op.path] ??= {})[op.method] = operationObject(op);
  return {
    openapi: '3.1.0',
    info: {
      title: 'DreamAPI',
      version: API_VERSION,
      description:
        'Generate speech, images and video with AI, billed in credits. Compatible with DreamAPI: submit a ' +
        'task, poll it or receive a signed webhook, download the result.',
    },
    servers: [{ url: options.serverUrl || '/' }],
    tags: TAGS,
    paths,
    webhooks: {
      taskFinished: {
        post: {
          operationId: 'taskFinished',
          summary: 'A task finished',
          description:
            `Sent to the callbackUrl of a submit when its task succeeds, fails or is canceled. ` +
            `Signed the Standard Webhooks way; answer 2xx, anything else is retried up to ${WEBHOOKS.maxAttempts} attempts with the same webhook-id.`,
          parameters: [
            {
              name: 'webhook-id',
              in: 'header',
              required: true,
              description: 'Unique per message; the same on retries, so deduplicate on it',
              schema: { type: 'string' },
            },
            {
              name: 'webhook-timestamp',
              in: 'header',
              required: true,
              description: `Unix seconds; reject messages more than ${WEBHOOKS.toleranceS} s from your clock`,
              schema: { type: 'string' },
            },
            {
              name: 'webhook-signature',
              in: 'header',
              required: true,
              description:
                'Space-separated "v1,<base64 HMAC-SHA256 of id.timestamp.body>", keyed by the base64 part of your whsec_ secret',
              schema: { type: 'string' },
            },
          ],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookEvent' } } },
          },
          responses: { '200': { description: 'Any 2xx acknowledges the message' } },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Your API key from the dashboard (Key tab)' },
      },
      schemas: { ErrorEnvelope: responseSchema(errorEnvelope), WebhookEvent: responseSchema(webhookEvent) },
    },
  };
}
