// Dashboard key tab: the default API key masked with reveal, Copy (toast 'Copied'), regenerate with confirmation; then
// all named keys.
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { accountsApi } from '../../lib/api';
import { API_KEYS, MESSAGES, STORAGE_KEYS, TOASTS } from '../../lib/product-rules';
import { showToast } from '../../lib/stores/modals';
import { $apiKey } from '../../lib/stores/signed-in';
import { local } from '../../lib/storage';
import NamedKeys from './NamedKeys';
import styles from './Dashboard.module.css';
import keyStyles from './keys.module.css';

export function maskKey(key: string): string {
  return `${key.slice(0, API_KEYS.visibleChars)}${'•'.repeat(16)}${key.slice(-4)}`;
}

export default function KeyTab({ userId }: { userId: string }) {
  const key = useStore($apiKey);
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState('');

  useEffect(() => {
    if (key) return;
    accountsApi
      .apiKey(userId)
      .then(({ key: fetched }) => {
        local.set(STORAGE_KEYS.userKey, fetched);
        $apiKey.set(fetched);
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : MESSAGES.failed));
  }, [key, userId]);

  const copy = async () => {
    if (!key) return;
    try {
      await navigator.clipboard.writeText(key);
      showToast(TOASTS.copied);
    } catch {
      showToast(TOASTS.copyFailed, 'error');
    }
  };

  const regenerate = async () => {
    setConfirming(false);
    try {
      const { key: fresh } = await accountsApi.regenerateKey(userId);
      local.set(STORAGE_KEYS.userKey, fresh);
      $apiKey.set(fresh);
      setShown(true);
      showToast(TOASTS.keyRegenerated);
    } catch (e) {
      setError(e instanceof Error ? e.message : MESSAGES.failed);
    }
  };

  return (
    <>
      <section className="card">
        <h2>Your API key</h2>
        <p className="muted">
          Send it as <code>Authorization: Bearer &lt;key&gt;</code>. Keep it secret; regenerate it if it leaks.
        </p>
        <div className={`cluster ${keyStyles.keyRow}`}>
          <code className={keyStyles.key} data-testid="api-key">
            {key ? (shown ? key : maskKey(key)) : 'Loading…'}
          </code>
          <div className={keyStyles.keyActions}>
            <button type="button" className="button button--ghost" onClick={() => setShown((s) => !s)} disabled={!key}>
              {shown ? 'Hide' : 'Reveal'}
            </button>
            <button type="button" className="button" onClick={() => void copy()} disabled={!key}>
              Copy
            </button>
          </div>
        </div>
        {error && (
          <p className={styles.error} role="alert">
            {error}
          </p>
        )}
        {confirming ? (
          <div className={keyStyles.confirm} role="alertdialog" aria-label="Regenerate the key?">
            <p>The current key stops working at once. Regenerate it?</p>
            <div className={keyStyles.keyActions}>
              <button type="button" className="button button--ghost" onClick={() => setConfirming(false)}>
                Cancel
              </button>
              <button type="button" className="button" onClick={() => void regenerate()}>
                Yes, regenerate
              </button>
            </div>
          </div>
        ) : (
          <button
            type="button"
            className={`button button--ghost ${keyStyles.regenerate}`}
            onClick={() => setConfirming(true)}
            disabled={!key}
          >
            Regenerate key
          </button>
        )}
      </section>
      {/* Listed again after a regenerate, so the default key's hint is current. */}
      {key && <NamedKeys key={key} />}
    </>
  );
}
