// Credit packs with Buy buttons: a guest is asked to log in, a signed-in user goes to Stripe Checkout.
import { useState } from 'react';
import { useStore } from '@nanostores/react';
import { paymentsApi } from '../../lib/api';
import { CREDIT_PACKS, MESSAGES, formatPrice } from '../../lib/spec';
import { openModal } from '../../lib/stores/modals';
import { $loggedIn } from '../../lib/stores/session';
import styles from './CreditPacks.module.css';

export default function CreditPacks() {
  const loggedIn = useStore($loggedIn);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState('');

  async function buy(packId: string) {
    setError('');
    if (!loggedIn) {
      openModal('login');
      return;
    }
    setBusy(packId);
    try {
      const { url } = await paymentsApi.checkout(packId);
      window.location.assign(url);
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
            <button
              type="button"
              className="button"
              disabled={busy !== null}
              aria-label={`Buy ${pack.name}: ${pack.credits.toLocaleString('en-US')} credits for ${formatPrice(pack)}`}
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
      <p className={`muted ${styles.note}`}>Secure payment by Stripe. Credits never expire and are added as soon as the payment is confirmed.</p>
    </div>
  );
}
