// The submit row every screen shares: cost in credits (quote()) beside the balance, the submit button and the top-up
// link.
import { useId } from 'react';
import { $credits } from '../../lib/stores/credits';
import { $loggedIn } from '../../lib/stores/signed-in';
import { useHydratedStore } from '../shared/useHydratedStore';
import type { Feature } from '../../lib/product-rules';
import { costNote } from './pricing';
import { useFeatures } from './useFeatures';
import styles from './CostBar.module.css';

interface Props {
  /** Credits this submit will hold; null while it depends on a file not chosen yet. */
  cost: number | null;
  /**
   * Said on the line under the cost while it is null, e.g. "1 credit per second of audio; upload it to see the total".
   */
  costHint?: string;
  label: string;
  busy: boolean;
  /** Why the button is disabled (invalid input, feature unavailable); shown next to it. */
  blocked?: string | null;
  onSubmit: () => void;
  /** The feature a submit runs: when no AI model makes it here and such runs are free, the cost says so. */
  feature?: Feature;
}

export default function CostBar({ cost, costHint, label, busy, blocked, onSubmit, feature }: Props) {
  const features = useFeatures();
  const note = feature ? costNote(feature, features) : null;
  // The pre-rendered HTML knew no session: a guest without a balance.
  const credits = useHydratedStore($credits, null);
  const loggedIn = useHydratedStore($loggedIn, false);
  const short = loggedIn && credits !== null && cost !== null && cost > credits;
  const reasonId = useId();
  return (
    <div className={styles.costBar}>
      <p className={`spread ${styles.cost}`} aria-live="polite">
        <span>
          Cost: <strong data-testid="cost">{cost === null ? '—' : cost}</strong> {cost === 1 ? 'credit' : 'credits'}
        </span>
        <span className={styles.balance}>
          {loggedIn ? (
            <>
              Balance: <strong data-testid="balance">{credits ?? '…'}</strong> credits
            </>
          ) : (
            'Log in to run it'
          )}
        </span>
        {/* One line under the cost, held from the first paint: the free note comes with the features answer, and the
            per-second hint may turn into it then; neither may push the balance or the submit (CLS 0). */}
        {(feature || costHint) && (
          <span className={styles.costNote} data-testid={note ? 'cost-note' : undefined}>
            {note ?? (cost === null ? costHint : null)}
          </span>
        )}
      </p>
      {short && (
        <p className={styles.warn}>
          Your balance does not cover this. <a href="/pricing#credit-packs">Top up credits</a>
        </p>
      )}
      <button
        type="button"
        className="button"
        onClick={onSubmit}
        disabled={busy || Boolean(blocked)}
        aria-busy={busy}
        aria-describedby={blocked ? reasonId : undefined}
      >
        {busy ? 'Working…' : label}
      </button>
      {blocked && (
        <p id={reasonId} className={styles.blocked} data-testid="blocked-reason">
          {blocked}
        </p>
      )}
    </div>
  );
}
