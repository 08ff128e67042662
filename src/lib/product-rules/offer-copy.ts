// What the landing and the pricing page say about this server's offer: neutral in the built HTML, refined from the
// features answer.

/**
 * The kinds of output, in the order the landing names them; each product's category makes one
 * (src/lib/site/products.ts).
 */
const KIND_WORDS = { Audio: 'speech', Image: 'images', Video: 'video' } as const;
export type OutputKind = keyof typeof KIND_WORDS;

/** "a", "a and b", "a, b and c". */
function listed(words: readonly string[]): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

export const OFFER_COPY = {
  /** The landing's headline before the answer: it promises no AI, as a server may run only the offline engines. */
  landingHeadline: 'Create speech, images and video',
  /**
   * The headline once the answer is here: the kinds this server makes, and "with AI" only when a served feature may
   * use an AI model (the offline engines are no AI). Unchanged when it serves nothing.
   */
  servedHeadline(kinds: readonly OutputKind[], withAi: boolean): string {
    const words = (Object.keys(KIND_WORDS) as OutputKind[])
      .filter((kind) => kinds.includes(kind))
      .map((kind) => KIND_WORDS[kind]);
    if (words.length === 0) return OFFER_COPY.landingHeadline;
    return `Create ${listed(words)}${withAi ? ' with AI' : ''}`;
  },
  /** The pricing page's lead: list prices everywhere, and where this server differs the table says so row by row. */
  pricingIntro:
    'Every feature has one list price in credits, the same in the playground and through the API. Beside each price the table says ' +
    'where this server runs the feature free of charge and which features it does not run. You see the cost before you run anything.',
  /** A pricing row of a feature with no playground screen. */
  apiOnly: 'API only',
} as const;
