// FastAPI's validation answer ({detail: [{loc, msg, type}]}, sent by fal and ElevenLabs with 422) read as our input
// fields.

/** One refused input: our field name (the provider's when we have none for it) and what the provider said. */
export interface FieldProblem {
  field: string;
  msg: string;
}

/** The input field a validation error's loc points at: ours when `fields` maps it, else the provider's own name. */
export function fieldOfLoc(loc: unknown, fields: Readonly<Record<string, string>>): string {
  const parts = (Array.isArray(loc) ? loc : [loc]).map(String);
  // FastAPI puts where the field was (body, query, path) first.
  const inside = ['body', 'query', 'path', 'header'].includes(parts[0] ?? '') ? parts.slice(1) : parts;
  const ours = (name: string) => (Object.hasOwn(fields, name) ? fields[name] : undefined);
  const path = inside.join('.');
  const top = ours(inside[0] ?? '');
  return ours(path) ?? (top ? [top, ...inside.slice(1)].join('.') : path || 'input');
}

/** The problems of a FastAPI `detail` list; empty when `detail` is not one (a sentence, an object). */
export function fieldProblems(detail: unknown, fields: Readonly<Record<string, string>>): FieldProblem[] {
  if (!Array.isArray(detail)) return [];
  return detail.map((d: { loc?: unknown; msg?: unknown } | null) => ({
    field: fieldOfLoc(d?.loc, fields),
    msg: typeof d?.msg === 'string' && d.msg.trim() !== '' ? d.msg : 'invalid',
  }));
}

/** Problems in one sentence: "field: msg; field: msg". */
export const problemsText = (problems: readonly FieldProblem[]): string =>
  problems.map((p) => `${p.field}: ${p.msg}`).join('; ');
