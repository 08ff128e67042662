// The cookie banner's behaviour (SPEC.md §2 shell, §3 `cookie-accpet`): shown until the visitor chooses, then gone for
// good.
import { $consent, chooseConsent, loadConsent, type ConsentChoice } from '../../lib/stores/consent';

/** Wires the static banner (CookieBanner.astro): its buttons carry the choice in data-consent. */
export function mountCookieBanner(banner: HTMLElement): () => void {
  banner.addEventListener('click', (event) => {
    const choice = (event.target as Element).closest<HTMLElement>('[data-consent]')?.dataset.consent;
    if (choice) chooseConsent(choice as ConsentChoice);
  });
  // Until the stored choice is read (undefined) the page's own inline script has decided; then it shows only while
  // there is none.
  const stop = $consent.subscribe((consent) => {
    if (consent !== undefined) banner.hidden = consent !== null;
  });
  loadConsent();
  return stop;
}
