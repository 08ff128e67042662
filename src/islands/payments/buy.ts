// Buying a credit pack (docs/payments.md), shared by the pricing page's plain script and the dashboard's React billing
// tab: a guest is asked to log in, a signed-in user goes to Stripe Checkout.
import { formatPrice, type CreditPack } from '../../lib/product-rules';
import { openModal } from '../../lib/stores/modals';
import { $loggedIn, loadApi } from '../../lib/stores/signed-in';

/** What a Buy button says to assistive technology: the pack, its credits and its price. */
export function buyLabel(pack: CreditPack): string {
  return `Buy ${pack.name}: ${pack.credits.toLocaleString('en-US')} credits for ${formatPrice(pack)}`;
}

/**
 * 'login' when the login modal was opened instead; otherwise the browser is on its way to checkout. Throws an Error
 * whose message is for people (the API's, SPEC.md §8) when checkout cannot start: while payments are off here, the
 * buttons are disabled as soon as the page knows it (the offer answer), so only a click before that gets this far.
 */
export async function buyPack(packId: string): Promise<'login' | 'checkout'> {
  if (!$loggedIn.get()) {
    openModal('login');
    return 'login';
  }
  // The API client comes with the click: the pricing page's first load stays within its budget
  // (src/lib/product-rules/page-budgets.ts).
  const { paymentsApi } = await loadApi();
  const { url } = await paymentsApi.checkout(packId);
  window.location.assign(url);
  return 'checkout';
}
