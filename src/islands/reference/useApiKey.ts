// The signed-in user's API key for React views (Try it, the playground's code panel): from the session store, fetched
// once when missing.
import { useEffect, useSyncExternalStore } from 'react';
import { useStore } from '@nanostores/react';
import { apiBase } from '../../lib/api';
import { fetchApiKey } from '../../lib/reference/api-key';
import { $apiKey, $user } from '../../lib/stores/signed-in';

export { maskApiKey } from '../../lib/reference/api-key';

const neverChanges = () => () => {};

/** undefined while the session is unknown, null for a guest, the key once known. */
export function useApiKey(): string | null | undefined {
  const user = useStore($user);
  const key = useStore($apiKey);
  useEffect(() => {
    // Views of one page may ask at once; fetchApiKey sends one request for them.
    if (user?.userId && !key) void fetchApiKey(user.userId);
  }, [user, key]);
  // The first render while hydrating must equal the pre-rendered HTML, which knew no session.
  const hydrated = useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
  if (!hydrated || user === undefined) return undefined;
  if (!user?.userId) return null;
  return key ?? undefined;
}

/** Where the API answers: the build's PUBLIC_API_BASE, else this site's origin (one process serves both). */
export function useApiOrigin(fallback: string): string {
  // The server snapshot keeps the hydrating render equal to the pre-rendered HTML; the browser's follows.
  return useSyncExternalStore(
    neverChanges,
    () => apiBase() || location.origin,
    () => fallback,
  );
}
