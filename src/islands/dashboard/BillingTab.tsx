// Dashboard billing tab: the credits ledger newest first, with dates and running balance, one page at a time.
import { useEffect, useState } from 'react';
import { accountsApi, type LedgerPage } from '../../lib/api';
import { CREDIT_HISTORY, MESSAGES } from '../../lib/spec';
import CreditPacks from '../payments/CreditPacks';
import styles from './Dashboard.module.css';

const REASONS: Record<string, string> = {
  invitation: 'Invitation',
  grant: 'Credit grant',
  'signup-grant': 'Sign-up credits',
  task: 'Generation',
  'task-hold': 'Generation (held)',
  'task-settle': 'Generation (settled)',
  'task-refund': 'Generation refund',
  refund: 'Refund',
  purchase: 'Credit purchase',
  dispute: 'Payment disputed',
};
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export default function BillingTab() {
  const [page, setPage] = useState(1);
  const [data, setData] = useState<LedgerPage | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    let live = true;
    accountsApi
      .history(page, CREDIT_HISTORY.defaultPageSize)
      .then((result) => live && setData(result))
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : MESSAGES.failed));
    return () => {
      live = false;
    };
  }, [page]);

  if (error) return <p className={styles.error} role="alert">{error}</p>;
  if (!data) return <p className="muted">Loading your history…</p>;
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));

  return (
    <>
    <section className={styles.buy} aria-labelledby="buy-credits">
      <h2 id="buy-credits">Buy credits</h2>
      <CreditPacks />
    </section>
    <section className="card">
      <h2>Credit history</h2>
      {data.list.length === 0 ? (
        <p className="muted">No credit changes yet. Redeem an invitation from the account menu to get started.</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Description</th>
                <th scope="col" className={styles.num}>Change</th>
                <th scope="col" className={styles.num}>Balance</th>
              </tr>
            </thead>
            <tbody>
              {data.list.map((entry) => (
                <tr key={entry.id}>
                  <td>{dateFormat.format(entry.createdAt)}</td>
                  <td>
                    {REASONS[entry.reason] ?? entry.reason}
                    {entry.reference && <span className="muted"> · {entry.reference}</span>}
                  </td>
                  <td className={`${styles.num} ${entry.delta > 0 ? styles.plus : styles.minus}`}>
                    {entry.delta > 0 ? `+${entry.delta}` : entry.delta}
                  </td>
                  <td className={styles.num}>{entry.balanceAfter}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 && (
        <nav className={styles.pager} aria-label="History pages">
          <button type="button" className="button button--ghost" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            Previous
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button type="button" className="button button--ghost" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
            Next
          </button>
        </nav>
      )}
    </section>
    </>
  );
}
