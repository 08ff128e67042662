// The signed-in user's API key on the reference pages and the playground's code panel: fetched once when the session
// has none, through the API client the session store loads on demand, so no page loads that client for it up front.
import { API_KEYS, STORAGE_KEYS } from '../spec';
import { local } from '../storage';
import { $apiKey, loadApi } from '../stores/session';

let fetching: Promise<void> | undefined;

/** Puts the key of `userId` in the session store (and storage, as sign-in does); calls made meanwhile share the request. */
export function fetchApiKey(userId: string): Promise<void> {
  fetching ??= loadApi()
    .then(({ accountsApi }) => accountsApi.apiKey(userId))
    .then(({ key }) => {
      local.set(STORAGE_KEYS.userKey, key);
      $apiKey.set(key);
    })
    .catch(() => undefined)
    .finally(() => {
      fetching = undefined;
    });
  return fetching;
}

/** The key with its middle hidden, as on the dashboard. */
export function maskApiKey(key: string): string {
  return `${key.slice(0, API_KEYS.visibleChars)}${'•'.repeat(12)}${key.slice(-4)}`;
}
