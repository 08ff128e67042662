// Validation messages: each kind of broken rule in plain words, a schema's own wording kept, an absent field "is
// required".
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssue, validate } from './issue-text';

function message(schema: z.ZodType, input: unknown): string {
  const result = validate(schema, input);
  if (result.success) throw new Error(`${JSON.stringify(input)} passed`);
  return describeIssue(result.error, input);
}

const page = z.object({ page: z.coerce.number().int().min(1).max(100) });

describe('describeIssue with validate', () => {
  it.each([
    ['an absent coerced number', page, {}, 'page: is required'],
    ['a coerced number that is not one', page, { page: 'abc' }, 'page: must be a number'],
    ['a fraction where a whole number is wanted', page, { page: 1.5 }, 'page: must be a whole number'],
    [
      "a number past the field's own range, not zod's whole-number bound",
      page,
      { page: 1e308 },
      'page: must be at most 100',
    ],
    ['a number below the range', page, { page: 0 }, 'page: must be at least 1'],
    ['an absent string', z.object({ name: z.string() }), {}, 'name: is required'],
    ['an empty string', z.object({ name: z.string().min(1) }), { name: '' }, 'name: must not be empty'],
    ['a long string', z.object({ name: z.string().max(3) }), { name: 'abcd' }, 'name: must be at most 3 characters'],
    [
      'a long list',
      z.object({ ids: z.array(z.string()).max(2) }),
      { ids: ['a', 'b', 'c'] },
      'ids: must have at most 2 items',
    ],
    ['an option off the list', z.object({ kind: z.enum(['a', 'b']) }), { kind: 'c' }, 'kind: must be one of "a", "b"'],
    ['a malformed email', z.object({ email: z.email() }), { email: 'x' }, 'email: must be an email address'],
    ['an unknown field', z.strictObject({ a: z.string() }), { a: 'x', b: 1 }, 'body: unknown field b'],
    [
      'a value of neither accepted type',
      z.object({ flag: z.union([z.boolean(), z.enum(['true', 'false'])]) }),
      { flag: 'yes' },
      'flag: must be a boolean or one of "true", "false"',
    ],
    [
      'an object that fails inside one alternative',
      z.object({ x: z.union([z.object({ a: z.string() }), z.number()]) }),
      { x: { a: 1 } },
      'x: matches none of the accepted forms',
    ],
    [
      'a rule with its own wording',
      z.object({ speed: z.coerce.number().int().min(80, 'must be 80 to 450').max(450, 'must be 80 to 450') }),
      { speed: 1e308 },
      'speed: must be 80 to 450',
    ],
  ])('%s', (_name, schema, input, expected) => {
    expect(message(schema, input)).toBe(expected);
  });

  it("keeps a schema's own message for an absent field", () => {
    const code = z.object({
      code: z.string({
        error: (issue) => (issue.input === undefined ? 'Please enter invitation code' : 'must be a string'),
      }),
    });
    expect(message(code, {})).toBe('code: Please enter invitation code');
  });
});
