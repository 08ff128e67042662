// The dashboard's API keys: name, hint, created, last used, credit caps and their use; create a named key (shown once),
// revoke one.
import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { dashboardApi, type ApiKeyView } from '../../lib/api';
import type { KeyCapView } from '../../lib/api/developer-tools';
import { MESSAGES, NAMED_API_KEYS } from '../../lib/product-rules';
import { showToast } from '../../lib/stores/modals';
import { CapField, capOf } from './cap-input';
import styles from './Dashboard.module.css';
import inline from './inline-form.module.css';
import keyStyles from './keys.module.css';

// Caps are loaded after the list, code and data: the page's first load stays within its budget.
const KeyCaps = lazy(() => import('./KeyCaps'));
const capsApi = () => import('../../lib/api/developer-tools').then((m) => m.developerToolsApi);

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const message = (e: unknown) => (e instanceof Error ? e.message : MESSAGES.failed);

export default function NamedKeys() {
  const [keys, setKeys] = useState<ApiKeyView[] | null>(null);
  const [name, setName] = useState('');
  const [dailyCap, setDailyCap] = useState('');
  const [monthlyCap, setMonthlyCap] = useState('');
  // null until the caps are read (or failed): the keys are listed with them, so no row grows under a pointer.
  const [caps, setCaps] = useState<Record<string, KeyCapView> | null>(null);
  const capsSaved = (view: KeyCapView) => setCaps((all) => ({ ...all, [view.keyId]: view }));
  const [created, setCreated] = useState<(ApiKeyView & { key: string }) | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [error, setError] = useState('');
  const newKeyBox = useRef<HTMLDivElement>(null);

  // A key shown once must be seen: on a phone the form ends near the fold, so the new key is brought into view.
  useEffect(() => {
    if (created) newKeyBox.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [created]);

  useEffect(() => {
    let live = true;
    dashboardApi.keys().then(
      (list) => live && setKeys(list),
      (e: unknown) => live && setError(message(e)),
    );
    capsApi()
      .then((api) => api.keyCaps())
      .then(
        (list) => live && setCaps(Object.fromEntries(list.map((c) => [c.keyId, c]))),
        (e: unknown) => {
          if (!live) return;
          setCaps({});
          setError(message(e));
        },
      );
    return () => {
      live = false;
    };
  }, []);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    try {
      const made = await dashboardApi.createKey(name);
      setCreated(made);
      setName('');
      // Caps given with the name are set at once, before the key is copied anywhere.
      capsSaved(
        await (await capsApi()).setKeyCaps(made.id, { dailyCap: capOf(dailyCap), monthlyCap: capOf(monthlyCap) }),
      );
      setDailyCap('');
      setMonthlyCap('');
      // Where the server lists it too: after the default key, newest first.
      setKeys((list) => [
        ...(list ?? []).filter((k) => k.isDefault),
        made,
        ...(list ?? []).filter((k) => !k.isDefault),
      ]);
    } catch (err) {
      setError(message(err));
    }
  };
  const revoke = async (key: ApiKeyView) => {
    setConfirming(null);
    try {
      await dashboardApi.revokeKey(key.id);
      setKeys((list) => list?.filter((k) => k.id !== key.id) ?? null);
      if (created?.id === key.id) setCreated(null);
      showToast('Key revoked');
    } catch (err) {
      setError(message(err));
    }
  };
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      showToast('Copied');
    } catch {
      showToast(MESSAGES.failed, 'error');
    }
  };

  return (
    <section className={`card ${styles.section}`} aria-labelledby="keys-heading">
      <h2 id="keys-heading">All keys</h2>
      <p className="muted">
        Give each app or machine its own key, so you can revoke one without stopping the others. Up to{' '}
        {NAMED_API_KEYS.maxPerUser} keys. A key may carry daily and monthly credit caps (UTC): a task that would pass
        one is refused, so a leaked or runaway key cannot drain your credits.
      </p>
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      {/* The form and a new key come before the list: the list arrives after the page is shown, and growing below them
          it moves nothing (a layout shift). */}
      <form className={`${inline.inlineForm} ${keyStyles.form}`} onSubmit={(e) => void create(e)}>
        <label>
          New key name
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={NAMED_API_KEYS.nameMaxLength}
            required
            placeholder="e.g. Production server"
          />
        </label>
        <CapField label="Daily credit cap" value={dailyCap} onChange={setDailyCap} />
        <CapField label="Monthly credit cap" value={monthlyCap} onChange={setMonthlyCap} />
        <button type="submit" className="button" disabled={keys !== null && keys.length >= NAMED_API_KEYS.maxPerUser}>
          Create key
        </button>
      </form>
      {created && (
        <div className={keyStyles.newKey} role="status" ref={newKeyBox}>
          <strong>Your new key “{created.name}”. Copy it now: it is not shown again.</strong>
          <code className={keyStyles.key} data-testid="new-key">
            {created.key}
          </code>
          <div className={keyStyles.keyActions}>
            <button type="button" className="button" onClick={() => void copy(created.key)}>
              Copy
            </button>
            <button type="button" className="button button--ghost" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </div>
      )}
      {!(keys && caps) && !error && <p className="muted">Loading keys…</p>}
      {keys && caps && (
        <ul className={keyStyles.keyList} data-testid="key-list">
          {keys.map((k) => (
            <li key={k.id} className={`spread ${keyStyles.keyItem}`} data-key-id={k.id}>
              <div className={keyStyles.keyFacts}>
                <strong>{k.name}</strong>
                <code className={styles.code}>{k.hint}</code>
                <span className="muted">
                  Created {dateFormat.format(k.createdAt)} ·{' '}
                  {k.lastUsedAt === null ? 'never used' : `last used ${dateFormat.format(k.lastUsedAt)}`}
                </span>
              </div>
              {caps[k.id] && (
                <Suspense fallback={null}>
                  <KeyCaps name={k.name} caps={caps[k.id]!} onSaved={capsSaved} />
                </Suspense>
              )}
              {k.isDefault ? (
                <span className="muted">Default key (regenerate it above)</span>
              ) : confirming === k.id ? (
                <div className={keyStyles.keyActions} role="group" aria-label={`Revoke ${k.name}?`}>
                  <span>Calls with it stop at once.</span>
                  <button type="button" className="button button--ghost" onClick={() => setConfirming(null)}>
                    Cancel
                  </button>
                  <button type="button" className="button" onClick={() => void revoke(k)}>
                    Yes, revoke
                  </button>
                </div>
              ) : (
                <button
                  type="button"
                  className="button button--ghost"
                  onClick={() => setConfirming(k.id)}
                  aria-label={`Revoke ${k.name}`}
                >
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
