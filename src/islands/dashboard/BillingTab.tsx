// Dashboard billing tab: buy credits, then the credits ledger newest first; each task row says its feature, what
// happened and links to it.
import { useEffect, useState } from 'react';
import { accountsApi, type LedgerPage } from '../../lib/api';
import { CREDIT_HISTORY, MESSAGES } from '../../lib/product-rules';
import CreditPacks from '../payments/CreditPacks';
import { ledgerText } from './ledger-text';
import Pager from './Pager';
import StackTable, { type Column } from './StackTable';
import styles from './Dashboard.module.css';
import tables from './tables.module.css';

const COLUMNS: Column[] = ['Date', 'What', { label: 'Change', num: true }, { label: 'Balance', num: true }];
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

  if (error)
    return (
      <p className={styles.error} role="alert">
        {error}
      </p>
    );
  if (!data) return <p className="muted">Loading your history…</p>;

  return (
    <>
      <section className={styles.buy} aria-labelledby="buy-credits">
        <h2 id="buy-credits">Buy credits</h2>
        <CreditPacks />
      </section>
      <section className="card">
        <h2 id="credit-history">Credit history</h2>
        <StackTable
          rows={data.list}
          empty="No credit changes yet. Redeem an invitation from the account menu to get started."
          labelledBy="credit-history"
          testId="billing-table"
          columns={COLUMNS}
        >
          {(entry) => {
            const text = ledgerText(entry);
            return (
              <tr key={entry.id}>
                <td data-label="Date">{dateFormat.format(entry.createdAt)}</td>
                <td data-label="What">
                  <div>
                    <strong>{text.title}</strong>
                    {text.detail && <span className={tables.detail}>{text.detail}</span>}
                    {text.href && (
                      <a className={tables.taskLink} href={text.href}>
                        View task
                      </a>
                    )}
                  </div>
                </td>
                <td data-label="Change" className={`${tables.num} ${entry.delta > 0 ? tables.plus : tables.minus}`}>
                  {entry.delta > 0 ? `+${entry.delta}` : entry.delta}
                </td>
                <td data-label="Balance" className={tables.num}>
                  {entry.balanceAfter}
                </td>
              </tr>
            );
          }}
        </StackTable>
        <Pager label="History pages" page={page} total={data.total} pageSize={data.pageSize} onPage={setPage} />
      </section>
    </>
  );
}
