// Reads a request body in any of the accepted encodings and validates it, naming the field and rule that failed.
import type { Context } from 'hono';
import type { z } from 'zod';
import { ERROR_CODES, ERROR_MESSAGES } from '../../src/lib/product-rules';
import { AppError, invalidInput } from './errors';
import { whileReading } from './cut-off';
import { describeIssue, validate } from './issue-text';

type RawInput = Record<string, unknown>;

/**
 * SPEC.md §7: the product API's default body is form-encoded, some calls send JSON. Both are accepted on
 * every route so clients never have to guess; an empty body reads as an empty object.
 */
export async function readBody(c: Context): Promise<RawInput> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const text = type.startsWith('multipart/') ? null : await whileReading(c, () => c.req.text());
  if (text !== null && text.trim() === '') return {};
  if (type === 'application/json' || type.endsWith('+json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text!);
    } catch {
      throw invalidInput(ERROR_MESSAGES.invalidJson);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw invalidInput('Request body must be a JSON object');
    }
    return parsed as RawInput;
  }
  if (type === 'application/x-www-form-urlencoded' || type === '') {
    return Object.fromEntries(new URLSearchParams(text!));
  }
  if (type.startsWith('multipart/form-data')) {
    try {
      return (await whileReading(c, () => c.req.parseBody({ all: false }))) as RawInput;
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw invalidInput('Request body is not valid multipart/form-data');
    }
  }
  throw new AppError(415, ERROR_CODES.unsupportedMediaType, ERROR_MESSAGES.unsupportedMediaType);
}

export { describeIssue, validate } from './issue-text';

/** Validates an input; a 400 names the first field and the rule it broke. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = validate(schema, input);
  if (!result.success) throw invalidInput(describeIssue(result.error, input));
  return result.data;
}

/** Reads and validates the body in one step. */
export async function validBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  return parseInput(schema, await readBody(c));
}

/** Validates the query string. */
export function validQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return parseInput(schema, c.req.query());
}
