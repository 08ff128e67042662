// Flattens a JSON Schema object into table rows (name, type, required, rules, description) for the reference pages.

type Schema = { [key: string]: unknown };

export interface SchemaRow {
  /** Dotted path; array items end in []. */
  name: string;
  type: string;
  required: boolean;
  rules: string[];
  description: string;
}

function typeOf(s: Schema): string {
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const variants = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (variants) return variants.map(typeOf).join(' | ');
  if (Array.isArray(s.type)) return s.type.join(' | ');
  if (s.type === 'array') return `${typeOf((s.items ?? {}) as Schema)}[]`;
  if (s.format === 'binary') return 'file';
  return typeof s.type === 'string' ? s.type : 'any';
}

/** A bound worth stating: zod's integer type writes ±Number.MAX_SAFE_INTEGER, which only says "whole number". */
const bound = (value: unknown): number | undefined =>
  typeof value === 'number' && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined;

/**
 * A length, size or value range in words: "1 to 5000 characters", "up to 64 characters", "1 to 50 items", "80 to 450",
 * "0 or more".
 */
function rangeOf(s: Schema): { text: string; numbers: number[] } | undefined {
  const kind =
    s.minLength !== undefined || s.maxLength !== undefined
      ? 'character'
      : s.minItems !== undefined || s.maxItems !== undefined
        ? 'item'
        : '';
  const min = bound(kind === 'character' ? s.minLength : kind === 'item' ? s.minItems : s.minimum);
  const max = bound(kind === 'character' ? s.maxLength : kind === 'item' ? s.maxItems : s.maximum);
  const above = kind ? undefined : bound(s.exclusiveMinimum);
  const unit = kind ? ` ${kind}${max === 1 || (max === undefined && min === 1) ? '' : 's'}` : '';
  // A string or list that may be empty has no lower bound worth saying.
  const low = kind && min === 0 ? undefined : min;
  if (low !== undefined && max !== undefined) return { text: `${low} to ${max}${unit}`, numbers: [low, max] };
  if (above !== undefined)
    return {
      text: max === undefined ? `more than ${above}` : `more than ${above}, at most ${max}`,
      numbers: max === undefined ? [above] : [above, max],
    };
  if (max !== undefined) return { text: kind ? `up to ${max}${unit}` : `at most ${max}`, numbers: [max] };
  if (low !== undefined) return { text: kind ? `at least ${low}${unit}` : `${low} or more`, numbers: [low] };
  return undefined;
}

/** The rules of a field, each stated once: a range the description already gives (its numbers) is left out. */
function rulesOf(s: Schema, description: string): string[] {
  const r: string[] = [];
  const range = rangeOf(s);
  const mentioned = (n: number) => new RegExp(`(^|[^\\d])${n}([^\\d]|$)`).test(description);
  // A text's lower bound of 1 only says "not empty": "up to 1500 characters" in the description is the whole rule.
  const implied = (n: number) => n === 1 && range?.numbers.length === 2 && / (character|item)s?$/.test(range.text);
  if (range && !range.numbers.every((n) => mentioned(n) || implied(n))) r.push(range.text);
  // zod's startsWith() writes a format and a pattern; a reader wants the prefix, unless the description shows it.
  const prefix =
    s.format === 'starts_with' && typeof s.pattern === 'string' ? /^\^(.*)\.\*$/.exec(s.pattern)?.[1] : undefined;
  if (prefix !== undefined) {
    if (!description.includes(prefix)) r.push(`starts with ${prefix}`);
  } else {
    if (typeof s.format === 'string' && s.format !== 'binary') r.push(`format ${s.format}`);
    if (typeof s.pattern === 'string') r.push(`pattern ${s.pattern}`);
  }
  if (s.default !== undefined) {
    const shown = typeof s.default === 'string' ? s.default : JSON.stringify(s.default);
    if (!description.includes(`${shown} (default)`) && !description.includes(`default ${shown}`))
      r.push(`default ${JSON.stringify(s.default)}`);
  }
  return r;
}

export function schemaRows(schema: Schema | undefined, prefix = ''): SchemaRow[] {
  if (!schema) return [];
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const rows: SchemaRow[] = [];
  for (const [key, prop] of Object.entries(properties)) {
    const name = prefix + key;
    const description = typeof prop.description === 'string' ? prop.description : '';
    rows.push({
      name,
      type: typeOf(prop),
      required: required.has(key),
      rules: rulesOf(prop, description),
      description,
    });
    if (prop.type === 'object') rows.push(...schemaRows(prop, `${name}.`));
    if (prop.type === 'array' && (prop.items as Schema | undefined)?.type === 'object')
      rows.push(...schemaRows(prop.items as Schema, `${name}[].`));
  }
  return rows;
}
