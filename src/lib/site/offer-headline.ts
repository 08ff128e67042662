// The landing's headline told what this server makes: the kinds its playground serves, and "with AI" only when a served
// feature may use an AI model (the built HTML promises neither).
import { OFFER_COPY, type Feature } from '../product-rules';
import { loadOffer, servesAnyModel, type Offer } from '../stores/offer';
import { isServed, PRODUCT_FEATURES } from './features';
import { PRODUCTS } from './products';

/** The headline for this answer: e.g. "Create speech and video" on a server running only the offline engines. */
export function servedHeadline(offer: Offer): string {
  const kinds = PRODUCTS.filter((p) => isServed(offer.features, PRODUCT_FEATURES[p.slug] ?? ([] as Feature[]))).map(
    (p) => p.category,
  );
  return OFFER_COPY.servedHeadline(kinds, servesAnyModel(offer));
}

/** Sets `el`'s text; it keeps the height it had, so a shorter headline moves nothing below it. */
export function applyHeadline(offer: Offer, el: HTMLElement): void {
  const text = servedHeadline(offer);
  if (el.textContent === text) return;
  el.style.minHeight = `${el.getBoundingClientRect().height}px`;
  el.textContent = text;
}

/**
 * Asks once (shared with the nav's marks) and refines `[data-offer-headline]`; when the server cannot be asked it stays
 * neutral.
 */
export function markHeadline(): void {
  const el = document.querySelector<HTMLElement>('[data-offer-headline]');
  if (el)
    loadOffer().then(
      (offer) => applyHeadline(offer, el),
      () => {},
    );
}
