// The share panel of one history item: opt-in public links to the result, with a lifetime, copy and revoke.
import { useEffect, useId, useState } from 'react';
import { historyApi, type ShareLinkView } from '../../lib/api';
import { MESSAGES, SHARE_LINKS } from '../../lib/product-rules';
import { showToast } from '../../lib/stores/modals';
import styles from './History.module.css';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const message = (e: unknown) => (e instanceof Error ? e.message : MESSAGES.failed);

export default function ShareLinks({ taskId, name }: { taskId: string; name: string }) {
  const [links, setLinks] = useState<ShareLinkView[] | null>(null);
  const [days, setDays] = useState<number>(SHARE_LINKS.defaultTtlDays);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const group = useId();

  useEffect(() => {
    let live = true;
    historyApi.shares(taskId).then(
      (list) => live && setLinks(list),
      (e: unknown) => live && setError(message(e)),
    );
    return () => {
      live = false;
    };
  }, [taskId]);

  const create = async () => {
    setBusy(true);
    setError('');
    try {
      const link = await historyApi.share(taskId, days);
      setLinks((list) => [link, ...(list ?? [])]);
    } catch (e) {
      setError(message(e));
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (link: ShareLinkView) => {
    try {
      await historyApi.revokeShare(link.id);
      setLinks((list) => list?.filter((l) => l.id !== link.id) ?? null);
      showToast('Link revoked');
    } catch (e) {
      setError(message(e));
    }
  };
  const copy = async (link: ShareLinkView) => {
    try {
      await navigator.clipboard.writeText(link.url);
      showToast('Copied');
    } catch {
      showToast(MESSAGES.failed, 'error');
    }
  };

  return (
    <section className={styles.share} aria-label={`Share ${name}`}>
      <p className={styles.shareNote}>
        Anyone with a link can see this result and its prompt or text, without an account, until the link expires or you
        revoke it.
      </p>
      <fieldset className={`cluster ${styles.ttl}`}>
        <legend>Link works for</legend>
        {SHARE_LINKS.ttlDays.map((d) => (
          <label key={d}>
            <input type="radio" name={group} value={d} checked={days === d} onChange={() => setDays(d)} />{' '}
            {d === 1 ? '1 day' : `${d} days`}
          </label>
        ))}
        <button type="button" className={styles.action} onClick={() => void create()} disabled={busy}>
          Create link
        </button>
      </fieldset>
      {error && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}
      {links && links.length > 0 && (
        <ul className={styles.links}>
          {links.map((link) => (
            <li key={link.id}>
              <input
                className={styles.linkUrl}
                readOnly
                value={link.url}
                aria-label="Share link"
                onFocus={(e) => e.currentTarget.select()}
              />
              <span className="muted">Until {dateFormat.format(link.expiresAt)}</span>
              <span className={styles.linkActions}>
                <button type="button" className={styles.action} onClick={() => void copy(link)}>
                  Copy
                </button>
                <button type="button" className={`${styles.action} ${styles.danger}`} onClick={() => void revoke(link)}>
                  Revoke
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
