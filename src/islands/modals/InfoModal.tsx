// The user-info (company) modal shown once per user after login (SPEC.md §3 company form, §4, §5 channel limit).
import { useState } from 'react';
import { useStore } from '@nanostores/react';
import { accountsApi } from '../../lib/api';
import {
  CHANNEL,
  COMPANY,
  MESSAGES,
  TOASTS,
  formatCount,
  isValidChannel,
  isValidCompany,
} from '../../lib/product-rules';
import { closeModal, showToast } from '../../lib/stores/modals';
import { $user } from '../../lib/stores/signed-in';
import TextField from '../shared/TextField';
import Modal from './Modal';
import styles from './modals.module.css';

export default function InfoModal() {
  const user = useStore($user);
  const [company, setCompany] = useState(user?.company ?? '');
  const [channel, setChannel] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (!isValidCompany(company)) {
      setError('Please enter your company name');
      return;
    }
    if (!isValidChannel(channel)) return;
    setBusy(true);
    setError('');
    try {
      await accountsApi.updateInfo(company.trim(), channel);
      const current = $user.get();
      if (current) $user.set({ ...current, company: company.trim(), channel });
      showToast(TOASTS.saved);
      closeModal();
    } catch (e) {
      showToast(TOASTS.notSaved, 'error');
      setError(e instanceof Error ? e.message : MESSAGES.submitFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title="Tell us about you" onClose={closeModal}>
      <form
        className={styles.form}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <TextField
          id="info-company"
          label="Company"
          className={styles.input}
          value={company}
          maxLength={COMPANY.maxLength}
          onValue={setCompany}
        />
        <TextField
          id="info-channel"
          label="How did you hear about us?"
          multiline
          className={styles.textarea}
          value={channel}
          maxLength={CHANNEL.maxLength}
          onValue={setChannel}
        />
        <span className={styles.counter} aria-live="polite">
          {formatCount(channel.length)}/{formatCount(CHANNEL.counterMax)}
        </span>
        {error && (
          <p className={styles.error} role="alert">
            {error}
          </p>
        )}
        <div className={styles.row}>
          <button type="button" className="button button--ghost" onClick={closeModal}>
            Skip
          </button>
          <button type="submit" className="button" disabled={busy}>
            Submit
          </button>
        </div>
      </form>
    </Modal>
  );
}
