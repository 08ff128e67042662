// Who hears of a 40001 answer (SPEC.md §8): its own small module, so the session store can listen on every page without
// loading the whole client, which comes when there is a call to make (src/lib/product-rules/page-budgets.ts).

/** What a 40001 answer tells: the country the server saw, when it sent one (SPEC.md §8). */
export interface NotLoggedIn {
  countryCode: string | null;
}

const listeners = new Set<(notice: NotLoggedIn) => void>();

/**
 * Called on every 40001 answer, before the call rejects: the session store forgets the stored tokens and keeps the
 * countryCode (SPEC.md §8). The client only reads what is stored, so it never depends on the store.
 */
export function onNotLoggedIn(listener: (notice: NotLoggedIn) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells every listener; the client calls it for each 40001 answer. */
export function notifyNotLoggedIn(notice: NotLoggedIn): void {
  for (const listener of listeners) listener(notice);
}
