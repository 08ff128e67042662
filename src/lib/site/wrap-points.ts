// Where a name or path may wrap in a narrow column: after "/", "_" and ".", rather than mid-word or past the column's
// edge.

/** The pieces of `text`, each ending where a line may break (a <wbr> goes between them). */
export function wrapPieces(text: string): string[] {
  return text.split(/(?<=[/_.])(?=\S)/);
}
