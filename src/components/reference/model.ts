// Build-time view of the OpenAPI document for the reference pages (imported by .astro files only; never shipped).
import {
  buildOpenApiDocument,
  ERROR_CATALOGUE,
  type JsonSchema,
  type OpenApiOperation,
  type Operation,
} from '../../lib/api-contract';
import type { SampleSpec } from '../../lib/reference/samples';

export interface ReferenceError {
  http: number;
  codes: number[];
  description: string;
}

/** An operation as its reference page shows it, read back from the OpenAPI document. */
export interface ReferenceOperation extends Pick<
  Operation,
  'id' | 'method' | 'path' | 'tag' | 'summary' | 'description'
> {
  auth: SampleSpec['auth'];
  parameters: Array<{ name: string; in: string; required: boolean; description: string }>;
  request?: {
    contentType: 'application/json' | 'multipart/form-data';
    schema: JsonSchema;
    example: Record<string, unknown>;
  };
  response: { schema: JsonSchema; example: unknown };
  /** Server-Sent Events: the response schema and example are those of each event's data and the wire format. */
  stream: boolean;
  errors: ReferenceError[];
  sample: SampleSpec;
}

/** The document the pages are built from: the one GET /api/openapi.json serves, with the build's API base. */
export const openApiDocument = buildOpenApiDocument({ serverUrl: import.meta.env.PUBLIC_API_BASE || '/' });

function toReference(path: string, method: 'get' | 'post', op: OpenApiOperation): ReferenceOperation {
  const [contentType, body] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
  const content = op.responses['200']!.content!;
  // A stream (text/event-stream) is described by the data of its events.
  const stream = content['text/event-stream'];
  const success = content['application/json'] ?? { schema: stream!['x-event-data']!, example: stream!.example };
  const auth: SampleSpec['auth'] =
    op.security.length > 0 ? 'bearer' : path === '/api/file/v1/upload' ? 'signature' : 'none';
  const request = body
    ? {
        contentType: contentType as 'application/json' | 'multipart/form-data',
        schema: body.schema,
        example: body.example as Record<string, unknown>,
      }
    : undefined;
  return {
    id: op.operationId,
    method,
    path,
    tag: op.tags[0]!,
    summary: op.summary,
    description: op.description,
    auth,
    parameters: op.parameters.map((p) => ({
      name: String(p.name),
      in: String(p.in),
      required: Boolean(p.required),
      description: String(p.description ?? ''),
    })),
    request,
    response: { schema: success.schema, example: success.example },
    stream: Boolean(stream),
    errors: Object.entries(op.responses)
      .filter(([status]) => status !== '200')
      .map(([status, r]) => ({ http: Number(status), codes: r['x-error-codes'] ?? [], description: r.description })),
    sample: {
      method,
      // A stream sample names the task to follow.
      path: stream ? `${path}?taskId=TASK_ID` : path,
      auth,
      contentType: request?.contentType,
      example: request?.example,
      envelope: success.schema.$ref === undefined && !stream,
      stream: Boolean(stream),
    },
  };
}

export const operations: ReferenceOperation[] = Object.entries(openApiDocument.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => toReference(path, method as 'get' | 'post', op)),
);

export const tags = openApiDocument.tags;

/** The catalogue rows of one operation's errors, for its table. */
export function errorDetails(codes: number[]) {
  return Object.values(ERROR_CATALOGUE).filter((e) => codes.includes(e.code));
}
