// Dashboard requests tab: the public API calls made with the user's keys (time, tool, status, credits, task id, key),
// newest first, paged.
import { Fragment, useEffect, useState } from 'react';
import { dashboardApi, type ApiRequestPage } from '../../lib/api';
import { MESSAGES, REQUEST_LOG } from '../../lib/product-rules';
import { wrapPieces } from '../../lib/site/wrap-points';
import Pager from './Pager';
import StackTable, { ListHead, type Column } from './StackTable';
import styles from './Dashboard.module.css';
import tables from './tables.module.css';

const COLUMNS: Column[] = ['Time', 'Tool', 'Status', { label: 'Credits', num: true }, 'Task', 'Key'];
const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export default function RequestsTab() {
  const [page, setPage] = useState(1);
  const [data, setData] = useState<ApiRequestPage | null>(null);
  const [error, setError] = useState('');
  const [refresh, setRefresh] = useState(0);

  useEffect(() => {
    let live = true;
    dashboardApi.requests(page, REQUEST_LOG.defaultPageSize).then(
      (result) => {
        if (!live) return;
        setData(result);
        setError('');
      },
      (e: unknown) => live && setError(e instanceof Error ? e.message : MESSAGES.failed),
    );
    return () => {
      live = false;
    };
  }, [page, refresh]);

  return (
    <section className="card">
      <ListHead id="requests-heading" title="API requests" onRefresh={() => setRefresh((n) => n + 1)} />
      <p className="muted">
        Every call to the public API made with your keys in the last 30 days. Calls from the playground are not listed.
      </p>
      <StackTable
        rows={data?.list ?? null}
        error={error}
        loading="Loading requests…"
        empty="No API calls yet. Try one from the API reference, or with curl and your key."
        labelledBy="requests-heading"
        testId="requests-table"
        columns={COLUMNS}
      >
        {(r) => (
          <tr key={r.id}>
            <td data-label="Time">{timeFormat.format(r.createdAt)}</td>
            <td data-label="Tool" className={styles.code}>
              {/* A narrow column breaks a path after its slashes and underscores (async/ do_tts_/common) first. */}
              {wrapPieces(r.tool).map((piece, i) => (
                <Fragment key={i}>
                  {i > 0 && <wbr />}
                  {piece}
                </Fragment>
              ))}
            </td>
            <td data-label="Status">
              <span className={r.status < 400 ? tables.ok : tables.bad}>
                {r.status}
                {r.code !== 0 && <span className="muted"> · code {r.code}</span>}
              </span>
            </td>
            <td data-label="Credits" className={tables.num}>
              {r.credits}
            </td>
            <td data-label="Task" className={styles.code}>
              {r.taskId ?? '—'}
            </td>
            <td data-label="Key">{r.keyName ?? <span className="muted">revoked key</span>}</td>
          </tr>
        )}
      </StackTable>
      {data && <Pager label="Request pages" page={page} total={data.total} pageSize={data.pageSize} onPage={setPage} />}
    </section>
  );
}
