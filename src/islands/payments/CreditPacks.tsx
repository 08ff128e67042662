// Credit packs with Buy buttons for the dashboard's billing tab (the pricing page has the same packs as plain HTML,
// src/components/CreditPacks.astro): a guest is asked to log in, a signed-in user goes to Stripe Checkout (buy.ts).
import { useState } from 'react';
import { CREDIT_PACKS, MESSAGES, formatPrice } from '../../lib/spec';
import { buyLabel, buyPack } from './buy';
import styles from './CreditPacks.module.css';

export default function CreditPacks() {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState('');

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
    <div>
      <ul className={styles.packs}>
        {CREDIT_PACKS.map((pack) => (
          <li key={pack.id} className={`card ${styles.pack}`}>
            <p className={styles.name}>
              {pack.name}
              {pack.badge && <span className={styles.badge}>{pack.badge}</span>}
            </p>
            <p className={styles.credits}>{pack.credits.toLocaleString('en-US')} credits</p>
            <p className={styles.price}>{formatPrice(pack)}</p>
            <button type="button" className="button" disabled={busy !== null} aria-label={buyLabel(pack)} onClick={() => buy(pack.id)}>
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
      <p className={`muted ${styles.note}`}>Secure payment by Stripe. Credits never expire and are added as soon as the payment is confirmed.</p>
    </div>
  );
}
