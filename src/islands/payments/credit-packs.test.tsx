// Buy buttons while this server takes no payments: disabled, with the reason and a support link beside them, before any
// click, on the dashboard's island and the pricing page's plain HTML; enabled when Stripe is configured.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routeBrowserTo, type RoutedBrowser } from '../../../server/test-support/browser';
import { createTasksTestApp, type TasksTestApp } from '../../../server/test-support/tasks';
import { CREDIT_PACKS, PAYMENTS_OFF } from '../../lib/product-rules';
import { EXTERNAL_LINKS } from '../../lib/site/links';
import { markPaymentsOff } from '../../lib/site/payments-marks';
import { $offer, forgetOffer } from '../../lib/stores/offer';
import { buyLabel } from './buy';
import { mountCreditPacks } from './credit-packs';
import CreditPacks from './CreditPacks';

const OFF = { STRIPE_SECRET_KEY: '', STRIPE_WEBHOOK_SECRET: '' };
const ON = { STRIPE_SECRET_KEY: 'sk_test_packs', STRIPE_WEBHOOK_SECRET: 'whsec_packs' };
let t: TasksTestApp | undefined;
let net: RoutedBrowser;

afterEach(async () => {
  cleanup();
  forgetOffer();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
  await t?.close();
  t = undefined;
});

async function serve(env: Record<string, string>) {
  t = await createTasksTestApp({ env });
  net = routeBrowserTo(t.app);
}

const buyButtons = () =>
  CREDIT_PACKS.map((pack) => screen.getByRole('button', { name: buyLabel(pack) }) as HTMLButtonElement);

describe('the billing tab island', () => {
  it('disables every Buy button and says why, with a link to support, when payments are off', async () => {
    await serve(OFF);
    render(<CreditPacks />);
    await waitFor(() => expect(buyButtons().every((b) => b.disabled)).toBe(true));
    const reason = document.getElementById(PAYMENTS_OFF.elementId)!;
    expect(reason.textContent).toContain(PAYMENTS_OFF.reason);
    expect(screen.getByRole('link', { name: PAYMENTS_OFF.contactSupport }).getAttribute('href')).toBe(
      EXTERNAL_LINKS.support,
    );
    expect(reason.closest('[data-payments-off]')).not.toBeNull();
    for (const button of buyButtons()) expect(button.getAttribute('aria-describedby')).toBe(PAYMENTS_OFF.elementId);
    // Nothing was asked of the checkout: the reason came from the offer answer alone.
    expect(net.sent.map((r) => r.path)).not.toContain('/payment/checkout');
  });

  it('keeps Buy enabled, without the reason, when Stripe is configured', async () => {
    await serve(ON);
    render(<CreditPacks />);
    await waitFor(() => expect($offer.get()?.payments).toEqual({ enabled: true }));
    expect(buyButtons().some((b) => b.disabled)).toBe(false);
    expect(document.querySelector('[data-payments-off]')).toBeNull();
  });
});

/** The pricing page's packs as src/components/CreditPacks.astro renders them. */
function pricingPacks(): HTMLElement {
  document.body.innerHTML = `<div data-credit-packs><ul>${CREDIT_PACKS.map((p) => `<li><button type="button" data-pack="${p.id}" aria-label="${buyLabel(p)}">Buy</button></li>`).join('')}</ul>
    <p data-error hidden></p><p id="${PAYMENTS_OFF.elementId}">${PAYMENTS_OFF.reason}</p></div>`;
  const root = document.querySelector<HTMLElement>('[data-credit-packs]')!;
  mountCreditPacks(root);
  markPaymentsOff();
  return root;
}

describe("the pricing page's packs", () => {
  it('are disabled and marked once the answer says payments are off, and a click then asks nothing', async () => {
    await serve(OFF);
    const root = pricingPacks();
    await waitFor(() => expect(root.hasAttribute('data-payments-off')).toBe(true));
    expect(buyButtons().every((b) => b.disabled && b.getAttribute('aria-describedby') === PAYMENTS_OFF.elementId)).toBe(
      true,
    );
    buyButtons()[0]!.click();
    expect(net.sent.map((r) => r.path)).toEqual(['/api-playground/task/v1/features']);
  });

  it('stay enabled when payments work here', async () => {
    await serve(ON);
    const root = pricingPacks();
    await waitFor(() => expect($offer.get()).not.toBeNull());
    expect(root.hasAttribute('data-payments-off')).toBe(false);
    expect(buyButtons().some((b) => b.disabled)).toBe(false);
  });
});
