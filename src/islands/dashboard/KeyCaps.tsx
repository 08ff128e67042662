// A key's credit caps in the key list: use today and this month against each cap (UTC), and a form to set or remove
// them.
import { useState, type FormEvent } from 'react';
import { developerToolsApi, type KeyCapView } from '../../lib/api/developer-tools';
import { KEY_CAP_MESSAGES, MESSAGES } from '../../lib/product-rules';
import { showToast } from '../../lib/stores/modals';
import { CapField, capOf } from './cap-input';
import styles from './DeveloperTools.module.css';
import inline from './inline-form.module.css';
import dashboard from './Dashboard.module.css';

const resetFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function CapLine({
  label,
  used,
  cap,
  resetsAt,
}: {
  label: string;
  used: number;
  cap: number | null;
  resetsAt: number;
}) {
  const share = cap === null ? 0 : Math.min(1, used / cap);
  return (
    <div className={styles.capLine}>
      <span className={styles.capLabel}>{label}</span>
      {cap === null ? (
        <span className={`${styles.capText} ${styles.capWide}`}>{used} used · no cap</span>
      ) : (
        <>
          <span
            className={styles.meter}
            role="meter"
            aria-label={`${label}: ${used} of ${cap} credits`}
            aria-valuemin={0}
            aria-valuemax={cap}
            aria-valuenow={Math.min(used, cap)}
          >
            <span
              className={`${styles.meterFill} ${share >= 1 ? styles.meterFull : ''}`}
              style={{ width: `${share * 100}%` }}
            />
          </span>
          <span className={styles.capText} title={`Resets ${resetFormat.format(resetsAt)}`}>
            {used} / {cap} credits
          </span>
        </>
      )}
    </div>
  );
}

export default function KeyCaps({
  name,
  caps,
  onSaved,
}: {
  name: string;
  caps: KeyCapView;
  onSaved: (view: KeyCapView) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [daily, setDaily] = useState('');
  const [monthly, setMonthly] = useState('');
  const [error, setError] = useState('');

  const open = () => {
    setDaily(caps.dailyCap === null ? '' : String(caps.dailyCap));
    setMonthly(caps.monthlyCap === null ? '' : String(caps.monthlyCap));
    setError('');
    setEditing(true);
  };
  const save = async (e: FormEvent) => {
    e.preventDefault();
    try {
      onSaved(await developerToolsApi.setKeyCaps(caps.keyId, { dailyCap: capOf(daily), monthlyCap: capOf(monthly) }));
      setEditing(false);
      showToast(KEY_CAP_MESSAGES.capsSaved);
    } catch (err) {
      setError(err instanceof Error ? err.message : MESSAGES.failed);
    }
  };

  return (
    <div className={styles.caps} data-testid="key-caps">
      <CapLine label="Today" used={caps.usedToday} cap={caps.dailyCap} resetsAt={caps.dayResetsAt} />
      <CapLine label="This month" used={caps.usedThisMonth} cap={caps.monthlyCap} resetsAt={caps.monthResetsAt} />
      {editing ? (
        <form
          className={`${inline.inlineForm} ${styles.capForm}`}
          onSubmit={(e) => void save(e)}
          aria-label={`Credit caps of ${name}`}
        >
          <CapField label="Daily cap (UTC day)" value={daily} onChange={setDaily} />
          <CapField label="Monthly cap" value={monthly} onChange={setMonthly} />
          <button type="submit" className="button">
            Save caps
          </button>
          <button type="button" className="button button--ghost" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <div>
          <button type="button" className="button button--ghost" onClick={open} aria-label={`Edit caps of ${name}`}>
            Edit caps
          </button>
        </div>
      )}
      {error && (
        <p className={dashboard.error} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
