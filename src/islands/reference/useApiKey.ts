// The signed-in user's API key for the reference islands: from the session store, fetched once when missing.
import { useEffect, useSyncExternalStore } from 'react';
import { useStore } from '@nanostores/react';
import { accountsApi, apiBase } from '../../lib/api';
import { API_KEYS, STORAGE_KEYS } from '../../lib/spec';
import { $apiKey, $user } from '../../lib/stores/session';
import { local } from '../../lib/storage';

let fetching: Promise<void> | undefined;
const neverChanges = () => () => {};

/** undefined while the session is unknown, null for a guest, the key once known. */
export function useApiKey(): string | null | undefined {
  const user = useStore($user);
  const key = useStore($apiKey);
  useEffect(() => {
    if (!user?.userId || key) return;
    // Both islands of a page ask at once; one request serves them.
    fetching ??= accountsApi
      .apiKey(user.userId)
      .then(({ key: fetched }) => {
        local.set(STORAGE_KEYS.userKey, fetched);
        $apiKey.set(fetched);
      })
      .catch(() => undefined)
      .finally(() => {
        fetching = undefined;
      });
  }, [user, key]);
  // The first render while hydrating must equal the pre-rendered HTML, which knew no session.
  const hydrated = useSyncExternalStore(neverChanges, () => true, () => false);
  if (!hydrated || user === undefined) return undefined;
  if (!user?.userId) return null;
  return key ?? undefined;
}

/** The key with its middle hidden, as on the dashboard. */
export function maskApiKey(key: string): string {
  return `${key.slice(0, API_KEYS.visibleChars)}${'•'.repeat(12)}${key.slice(-4)}`;
}

/** Where the API answers: the build's PUBLIC_API_BASE, else this site's origin (one process serves both). */
export function useApiOrigin(fallback: string): string {
  // The server snapshot keeps the hydrating render equal to the pre-rendered HTML; the browser's follows.
  return useSyncExternalStore(neverChanges, () => apiBase() || location.origin, () => fallback);
}

