// Validation messages a person can act on: "field: rule" in plain words, in place of zod's default texts.
import type { z } from 'zod';

type RawIssue = z.core.$ZodRawIssue;
type Issue = z.core.$ZodIssue;

const LARGEST_WHOLE = Number.MAX_SAFE_INTEGER;
/** What a coerced number field that got no number hears; describeIssue tells an absent field apart. */
const NOT_A_NUMBER = 'must be a number';

/** "a string", "an array", "a whole number": how an expected type reads in a sentence. */
function typeName(expected: string): string {
  if (expected === 'int') return 'a whole number';
  if (expected === 'nan') return 'not a number';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** What a bound is counted in: characters of a string, items of a list, or nothing for a number. */
function unit(origin: string, bound: number | bigint): string {
  if (origin === 'string') return Number(bound) === 1 ? ' character' : ' characters';
  if (origin === 'array' || origin === 'set') return Number(bound) === 1 ? ' item' : ' items';
  if (origin === 'file') return ' bytes';
  return '';
}

const shown = (value: unknown) => (typeof value === 'string' ? `"${value}"` : String(value));

/**
 * The rule an issue broke, for issues whose schema gave no message of its own (zod uses a schema's own message
 * first, so "must be 80 to 450 words per minute" stays as written). Passed to safeParse as its error map.
 */
export function plainRule(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      if (issue.expected === 'number' && typeof issue.input === 'number' && Number.isNaN(issue.input))
        return NOT_A_NUMBER;
      if (issue.expected === 'int') return 'must be a whole number';
      return `must be ${typeName(issue.expected)}`;
    case 'too_big': {
      const max = issue.maximum;
      if ((issue.origin === 'int' || issue.origin === 'number') && Math.abs(Number(max)) >= LARGEST_WHOLE)
        return 'is too large';
      if (issue.origin === 'array' || issue.origin === 'set')
        return `must have at most ${max}${unit(issue.origin, max)}`;
      return issue.inclusive === false
        ? `must be less than ${max}${unit(issue.origin, max)}`
        : `must be at most ${max}${unit(issue.origin, max)}`;
    }
    case 'too_small': {
      const min = issue.minimum;
      if ((issue.origin === 'int' || issue.origin === 'number') && Math.abs(Number(min)) >= LARGEST_WHOLE)
        return 'is too small';
      if (issue.origin === 'string' && Number(min) === 1) return 'must not be empty';
      if ((issue.origin === 'array' || issue.origin === 'set') && Number(min) === 1) return 'must not be empty';
      if (issue.origin === 'array' || issue.origin === 'set')
        return `must have at least ${min}${unit(issue.origin, min)}`;
      return issue.inclusive === false
        ? `must be more than ${min}${unit(issue.origin, min)}`
        : `must be at least ${min}${unit(issue.origin, min)}`;
    }
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${shown(issue.values[0])}`
        : `must be one of ${issue.values.map(shown).join(', ')}`;
    case 'invalid_format':
      if (issue.format === 'email') return 'must be an email address';
      if (issue.format === 'url') return 'must be a URL';
      if (issue.format === 'regex') return 'is not in the expected format';
      return `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
    case 'invalid_union': {
      // Each alternative's first complaint, as what the value could have been: "a boolean or one of "true", "false"".
      const alternatives = [
        ...new Set(
          issue.errors
            .map((branch) => branch[0]?.message.replace(/^must be /, ''))
            .filter((m): m is string => Boolean(m)),
        ),
      ];
      const deep = issue.errors.some((branch) => (branch[0]?.path.length ?? 0) > 0);
      return alternatives.length > 0 && !deep
        ? `must be ${alternatives.join(' or ')}`
        : 'matches none of the accepted forms';
    }
    default:
      return undefined;
  }
}

/** Zod's implicit bound of a whole number, broken alongside the field's own range: that range says more. */
const isImplicitBound = (issue: Issue) =>
  (issue.code === 'too_big' && Math.abs(Number(issue.maximum)) >= LARGEST_WHOLE) ||
  (issue.code === 'too_small' && Math.abs(Number(issue.minimum)) >= LARGEST_WHOLE);

const samePath = (a: Issue, b: Issue) => a.path.length === b.path.length && a.path.every((key, i) => key === b.path[i]);

/** The value a body held at an issue's path; undefined when the field was not sent. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * The first problem as "field: rule". A field that was not sent "is required", whatever its schema coerced it to;
 * of a field's several complaints, its own range comes before zod's bound on whole numbers.
 */
export function describeIssue(error: z.ZodError, input?: unknown): string {
  const first = error.issues[0];
  if (!first) return 'Invalid input';
  const issue =
    (isImplicitBound(first) &&
      error.issues.find((other) => other !== first && samePath(other, first) && !isImplicitBound(other))) ||
    first;
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
  // A coerced field reports a missing value as NaN ("must be a number"); the body says what really happened.
  const missing =
    input !== undefined &&
    issue.message === NOT_A_NUMBER &&
    issue.path.length > 0 &&
    valueAt(input, issue.path) === undefined;
  return `${field}: ${missing ? 'is required' : issue.message}`;
}

/** safeParse with the plain messages above for every rule the schema did not word itself. */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.ZodSafeParseResult<z.infer<S>> {
  return schema.safeParse(input, { error: plainRule }) as z.ZodSafeParseResult<z.infer<S>>;
}
