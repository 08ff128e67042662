// The signed-in user's API key on the reference pages and the playground's code panel: fetched once when the session
// has none, through the API client the session store loads on demand, so no page loads that client for it up front.
import { API_KEYS, STORAGE_KEYS } from '../product-rules';
import { KEY_PLACEHOLDER } from './samples';
import { local } from '../storage';
import { $apiKey, loadApi } from '../stores/signed-in';

let fetching: Promise<void> | undefined;

/**
 * Puts the key of `userId` in the session store (and storage, as sign-in does); calls made meanwhile share the request.
 */
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

/**
 * The key as a code sample shows it until revealed: the prefix, dots and its last characters, exactly as long as the
 * placeholder it takes the place of. The key arrives after the page is shown, and the rest of its line keeps its
 * place (a longer text there would move it: a layout shift).
 */
export function maskApiKey(key: string): string {
  const end = key.slice(-API_KEYS.sampleVisibleEnd);
  return `${API_KEYS.prefix}${'•'.repeat(KEY_PLACEHOLDER.length - API_KEYS.prefix.length - end.length)}${end}`;
}
