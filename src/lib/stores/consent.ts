// Cookie consent state shared by islands, persisted under the `cookie-accpet` key of SPEC.md §3.
import { atom } from 'nanostores';
import { STORAGE_KEYS } from '../product-rules';

export type ConsentChoice = 'accepted' | 'declined';

/** undefined until read from storage in the browser; null when the visitor has not chosen yet. */
export const $consent = atom<ConsentChoice | null | undefined>(undefined);

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    // Storage can throw when blocked by browser settings; consent then lives for this page only.
    return undefined;
  }
}

export function loadConsent(): void {
  const stored = storage()?.getItem(STORAGE_KEYS.cookieAccept);
  $consent.set(stored === 'accepted' || stored === 'declined' ? stored : null);
}

export function chooseConsent(choice: ConsentChoice): void {
  storage()?.setItem(STORAGE_KEYS.cookieAccept, choice);
  $consent.set(choice);
}
