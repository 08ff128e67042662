// Dashboard overview: credits, masked user id (SPEC.md §9), email, company, the suspension warning icon (§6), and
// credits used per day.
import type { UserInfo } from '../../lib/api';
import { maskUserId } from '../../lib/product-rules';
import UsageChart from './UsageChart';
import styles from './OverviewTab.module.css';

export default function OverviewTab({ user }: { user: UserInfo }) {
  return (
    <>
      <div className={styles.grid}>
        <section className={`card ${styles.stat}`}>
          <h2 className={styles.statLabel}>Credits</h2>
          <p className={styles.statValue} data-testid="credits">
            {user.userPoints}
          </p>
        </section>
        <section className="card">
          <dl className={styles.facts}>
            <dt>User ID</dt>
            <dd className={styles.mono} title="Masked for privacy">
              {maskUserId(user.userId)}
            </dd>
            <dt>Email</dt>
            <dd>{user.userEmail || '—'}</dd>
            <dt>Company</dt>
            <dd>{user.company || '—'}</dd>
            <dt>Status</dt>
            <dd>
              {user.valid ? (
                <span className={styles.warning}>
                  <span aria-hidden="true">⚠</span> Suspended
                </span>
              ) : (
                'Active'
              )}
            </dd>
          </dl>
        </section>
      </div>
      <UsageChart />
    </>
  );
}
