// The account-suspension modal (SPEC.md §4): shown when valid is truthy, closes itself after a visible 9 s countdown.
import { useEffect, useState } from 'react';
import { EXTERNAL_LINKS } from '../../lib/site/links';
import { MODALS } from '../../lib/product-rules';
import { closeModal } from '../../lib/stores/modals';
import Modal from './Modal';
import styles from './modals.module.css';

export default function SuspensionModal() {
  const [left, setLeft] = useState<number>(MODALS.suspensionCountdownS);

  useEffect(() => {
    if (left <= 0) {
      closeModal();
      return;
    }
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  return (
    <Modal title="Account suspended" onClose={closeModal}>
      <p>
        Your account has been suspended, so generation and the API are unavailable. Contact support if you think this is
        a mistake.
      </p>
      <p className={styles.countdown} aria-live="polite" aria-label={`Closing in ${left} seconds`}>
        {left}s
      </p>
      <a className={`button ${styles.full}`} href={EXTERNAL_LINKS.support}>
        Contact support
      </a>
    </Modal>
  );
}
