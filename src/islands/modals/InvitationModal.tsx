// The invitation redeem modal (SPEC.md §5 'Please enter invitation code', §8 'Redeem Successfully', §9 +500 at once).
import { useState } from 'react';
import { accountsApi } from '../../lib/api';
import { MESSAGES, TOASTS, isValidInvitationCode } from '../../lib/product-rules';
import { addCredits } from '../../lib/stores/credits';
import { closeModal, showToast } from '../../lib/stores/modals';
import Modal from './Modal';
import styles from './modals.module.css';

export default function InvitationModal() {
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const redeem = async () => {
    if (!isValidInvitationCode(code)) {
      setError(MESSAGES.enterInvitationCode);
      return;
    }
    setBusy(true);
    setError('');
    try {
      const result = await accountsApi.redeem(code.trim());
      addCredits(result.credits);
      showToast(TOASTS.redeemed);
      closeModal();
    } catch (e) {
      setError(e instanceof Error ? e.message : MESSAGES.failed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title="My Invitation" onClose={closeModal}>
      <form
        className={styles.form}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void redeem();
        }}
      >
        <label className={styles.label} htmlFor="invitation-code">
          Invitation code
        </label>
        <input
          id="invitation-code"
          className={styles.input}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="off"
        />
        {error && (
          <p className={styles.error} role="alert">
            {error}
          </p>
        )}
        <button type="submit" className={`button ${styles.full}`} disabled={busy}>
          Redeem
        </button>
      </form>
    </Modal>
  );
}
