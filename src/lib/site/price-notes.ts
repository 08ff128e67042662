// The pricing page's rows told what this server does: "Free here: … (no AI model)" where a run costs nothing here, from
// the page's one offer answer. The rows it does not serve are badged by features-marks.ts, as the playground's links
// are.
import type { Feature } from '../product-rules';
import { loadOffer, type Offer } from '../stores/offer';

/** `[data-price-note="feature"]` says the features answer's price note when a run of that feature is free here. */
export function applyPriceNotes(offer: Offer, root: ParentNode = document): void {
  for (const el of root.querySelectorAll<HTMLElement>('[data-price-note]')) {
    const state = offer.features.get(el.dataset.priceNote as Feature);
    if (!state?.available || state.usesModel || state.noModelPrice !== 'free') continue;
    el.textContent = state.priceNote;
    el.closest('tr')?.setAttribute('data-free-here', '');
  }
}

/**
 * Asks once (shared with every other reader of the offer) and marks the table; when the server cannot be asked, nothing
 * is said.
 */
export function markPriceNotes(): void {
  if (!document.querySelector('[data-price-note]')) return;
  loadOffer().then(
    (offer) => applyPriceNotes(offer),
    () => {},
  );
}
