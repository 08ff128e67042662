// The shape of a documented API operation: a leaf the operation lists (operations.ts, developer-operations.ts,
// live-status.ts) share.
import type { z } from 'zod';
import type { ErrorKey } from './errors';

export type Tag = 'Speech' | 'Video' | 'Image' | 'Tasks' | 'Account' | 'Uploads' | 'Meta';

/** What a stream operation adds to an ordinary one: its query, the SSE event name and an example of the wire format. */
export interface StreamDoc {
  query: z.ZodType;
  fields: Record<string, string>;
  event: string;
  wireExample: string;
}

export interface Operation {
  /** Stable id: the OpenAPI operationId and the /api-reference/{id} page. */
  id: string;
  method: 'get' | 'post';
  path: string;
  tag: Tag;
  summary: string;
  description: string;
  /** bearer: Authorization: Bearer <key>; signature: the upload policy's signature; none: public. */
  auth: 'bearer' | 'signature' | 'none';
  request?: {
    schema: z.ZodType;
    contentType: 'application/json' | 'multipart/form-data';
    example: Record<string, unknown>;
    /** Field descriptions merged into the generated JSON Schema. */
    fields?: Record<string, string>;
  };
  /** The `data` of a success answer, or null for a non-envelope answer (the OpenAPI document itself). */
  response: { schema: z.ZodType | null; example: unknown };
  errors: ErrorKey[];
  /** Submits accept Idempotency-Key and callbackUrl. */
  submit?: boolean;
  /** A GET answered with Server-Sent Events whose data is `response` (src/lib/api-contract/live-status.ts). */
  stream?: StreamDoc;
}

/**
 * The documentation of one public tool; the operation adds its path, body schema and answer, and from the product
 * rules its price, the example's charge and which field's length sets the estimate.
 */
export interface ToolDoc {
  id: string;
  tag: Tag;
  summary: string;
  description: string;
  example: Record<string, unknown>;
  fields: Record<string, string>;
}
