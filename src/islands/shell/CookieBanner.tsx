// The cookie banner island: asks once, remembers the answer in local storage (SPEC.md §2 shell, §3 keys).
import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { $consent, chooseConsent, loadConsent } from '../../lib/stores/consent';
import styles from './CookieBanner.module.css';

export default function CookieBanner() {
  const consent = useStore($consent);

  useEffect(() => {
    loadConsent();
  }, []);

  if (consent !== null) return null;

  return (
    <section className={styles.banner} role="region" aria-label="Cookie consent">
      <p className={styles.text}>
        We use cookies to keep you signed in and to understand how the site is used, so we can make it better.
      </p>
      <div className={styles.actions}>
        <button type="button" className="button button--ghost" onClick={() => chooseConsent('declined')}>
          Only necessary
        </button>
        <button type="button" className="button" onClick={() => chooseConsent('accepted')}>
          Accept all
        </button>
      </div>
    </section>
  );
}
