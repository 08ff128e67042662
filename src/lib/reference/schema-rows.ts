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

function rulesOf(s: Schema): string[] {
  const r: string[] = [];
  if (typeof s.minLength === 'number' && s.minLength > 0) r.push(`at least ${s.minLength} characters`);
  if (typeof s.maxLength === 'number') r.push(`at most ${s.maxLength} characters`);
  if (typeof s.minimum === 'number') r.push(`≥ ${s.minimum}`);
  if (typeof s.maximum === 'number') r.push(`≤ ${s.maximum}`);
  if (typeof s.format === 'string' && s.format !== 'binary') r.push(`format ${s.format}`);
  if (typeof s.pattern === 'string') r.push(`pattern ${s.pattern}`);
  if (s.default !== undefined) r.push(`default ${JSON.stringify(s.default)}`);
  return r;
}

export function schemaRows(schema: Schema | undefined, prefix = ''): SchemaRow[] {
  if (!schema) return [];
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const rows: SchemaRow[] = [];
  for (const [key, prop] of Object.entries(properties)) {
    const name = prefix + key;
    rows.push({ name, type: typeOf(prop), required: required.has(key), rules: rulesOf(prop), description: typeof prop.description === 'string' ? prop.description : '' });
    if (prop.type === 'object') rows.push(...schemaRows(prop, `${name}.`));
    if (prop.type === 'array' && (prop.items as Schema | undefined)?.type === 'object') rows.push(...schemaRows(prop.items as Schema, `${name}[].`));
  }
  return rows;
}
