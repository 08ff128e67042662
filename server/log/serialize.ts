// Log lines as JSON that cannot throw: BigInt as text, a cycle as "[Circular]", an Error with its name, message and
// stack.
//
// safe-stable-stringify would do this, but it is only a transitive development dependency here (of winston, via
// s3rver) and it writes a BigInt as a bare number, which JSON readers round; this replacer is the few lines we need.

export const CIRCULAR = '[Circular]';

/** What an Error says about itself: JSON.stringify alone writes `{}` for one (its fields are not enumerable). */
function errorFields(error: Error): Record<string, unknown> {
  const out: Record<string, unknown> = { ...error, name: error.name, message: error.message, stack: error.stack };
  if (error.cause !== undefined) out.cause = error.cause;
  return out;
}

/**
 * JSON.stringify(value) that never throws on BigInt or cycles. Only a value that contains itself is a cycle: the same
 * object twice side by side (not inside itself) is written twice. Still throws when a getter or toJSON() throws.
 */
export function safeStringify(value: unknown): string {
  // The objects being written, outermost first: `holder` is what JSON.stringify walks (an Error's stand-in), `source`
  // the object the caller had, so an Error whose cause is itself is caught too.
  const path: Array<{ holder: object; source: object }> = [];
  return JSON.stringify(value, function (this: unknown, _key: string, v: unknown) {
    if (typeof v === 'bigint') return v.toString();
    if (typeof v !== 'object' || v === null) return v;
    // The replacer is called with the object holding `v` as `this`: everything after it on the path is done with.
    while (path.length > 0 && path[path.length - 1]!.holder !== this) path.pop();
    if (path.some((p) => p.source === v)) return CIRCULAR;
    const holder = v instanceof Error ? errorFields(v) : v;
    path.push({ holder, source: v });
    return holder;
  });
}
