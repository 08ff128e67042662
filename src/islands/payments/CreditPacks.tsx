// Credit packs with Buy buttons for the dashboard's billing tab (the pricing page has the same packs as plain HTML,
// src/components/CreditPacks.astro): disabled with the reason beside them while the server takes no payments, else a
// guest is asked to log in and a signed-in user goes to Stripe Checkout (buy.ts).
import { useEffect, useState } from 'react';
import { CREDIT_PACKS, MESSAGES, PAYMENTS_OFF, formatPrice } from '../../lib/product-rules';
import { EXTERNAL_LINKS } from '../../lib/site/links';
import { buyLabel, buyPack } from './buy';
import styles from './CreditPacks.module.css';

export default function CreditPacks() {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState('');
  // Unknown in the built HTML and while hydrating; the store loads beside the island and says when payments are off.
  const [off, setOff] = useState(false);
  useEffect(() => {
    let unsubscribe = () => {};
    let live = true;
    void import('../../lib/stores/offer').then(({ $offer, loadOffer, paymentsOff }) => {
      if (!live) return;
      unsubscribe = $offer.subscribe((offer) => setOff(paymentsOff(offer)));
      loadOffer().catch(() => {});
    });
    return () => {
      live = false;
      unsubscribe();
    };
  }, []);

  async function buy(packId: string) {
    setError('');
    setBusy(packId);
    try {
      if ((await buyPack(packId)) === 'login') setBusy(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : MESSAGES.failed);
      setBusy(null);
    }
  }

  return (
    <div data-payments-off={off ? '' : undefined}>
      {/* Above the packs, so a phone shows why Buy is off before the first button. */}
      <div className={styles.notes}>
        <p className={`muted ${styles.note}`}>
          Secure payment by Stripe. Credits never expire and are added as soon as the payment is confirmed.
        </p>
        <p className={styles.off} id={PAYMENTS_OFF.elementId}>
          {PAYMENTS_OFF.reason} <a href={EXTERNAL_LINKS.support}>{PAYMENTS_OFF.contactSupport}</a>
        </p>
      </div>
      <ul className={`grid ${styles.packs}`}>
        {CREDIT_PACKS.map((pack) => (
          <li key={pack.id} className={`card ${styles.pack}`}>
            <p className={`cluster ${styles.name}`}>
              {pack.name}
              {pack.badge && <span className={styles.badge}>{pack.badge}</span>}
            </p>
            <p className={styles.credits}>{pack.credits.toLocaleString('en-US')} credits</p>
            <p className={styles.price}>{formatPrice(pack)}</p>
            <button
              type="button"
              className="button"
              disabled={off || busy !== null}
              aria-label={buyLabel(pack)}
              aria-describedby={off ? PAYMENTS_OFF.elementId : undefined}
              onClick={() => buy(pack.id)}
            >
              {busy === pack.id ? 'Opening checkout…' : 'Buy'}
            </button>
          </li>
        ))}
      </ul>
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
