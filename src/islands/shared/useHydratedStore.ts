// A nanostore read for islands that hydrate pre-rendered HTML: the hydrating render sees the value the page was built
// with.
import { useCallback, useSyncExternalStore } from 'react';
import type { ReadableAtom } from 'nanostores';

/**
 * Like useStore, except that while React hydrates it returns `built`, the value the HTML was rendered with.
 * The session can load before an island hydrates (another island started it, or the chunk came late); reading the
 * live value then would render different markup than the server did: React's hydration error #418. React renders
 * again with the live value right after hydrating, so nothing is shown stale.
 */
export function useHydratedStore<T>(store: ReadableAtom<T>, built: T): T {
  const subscribe = useCallback((onChange: () => void) => store.listen(onChange), [store]);
  return useSyncExternalStore(subscribe, store.get, () => built);
}
