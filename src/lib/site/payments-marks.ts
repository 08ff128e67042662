// The pricing page's Buy buttons disabled, with the reason shown beside them, as soon as the offer answer says this
// server takes no payments: before any click, and beside the page's first load (src/components/CreditPacks.astro
// renders the reason).
import { PAYMENTS_OFF } from '../product-rules';
import { loadOffer, paymentsOff } from '../stores/offer';

/** Marks `root` (its CSS then shows the reason in place of the payment note) and disables its `[data-pack]` buttons. */
export function disablePacks(root: HTMLElement): void {
  root.setAttribute('data-payments-off', '');
  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-pack]')) {
    button.disabled = true;
    button.setAttribute('aria-describedby', PAYMENTS_OFF.elementId);
  }
}

/** Asks once (shared with every other reader of the offer); when the server cannot be asked, a click finds out. */
export function markPaymentsOff(): void {
  const root = document.querySelector<HTMLElement>('[data-credit-packs]');
  if (root)
    loadOffer().then(
      (offer) => paymentsOff(offer) && disablePacks(root),
      () => {},
    );
}
