// Dashboard webhook delivery log: every attempt (time, URL, status, latency, answer's first bytes, next retry), failed
// only on request, Redeliver.
import { useEffect, useState } from 'react';
import { developerToolsApi, type WebhookAttemptView } from '../../lib/api/developer-tools';
import { MESSAGES, WEBHOOK_LOG, WEBHOOK_LOG_MESSAGES } from '../../lib/product-rules';
import { showToast } from '../../lib/stores/modals';
import dashboard from './Dashboard.module.css';
import tables from './tables.module.css';
import styles from './DeveloperTools.module.css';
import StackTable, { ListHead, type Column } from './StackTable';

const COLUMNS: Column[] = [
  'Time',
  'Event',
  'URL',
  'Status',
  { label: 'Latency', num: true },
  'Answer',
  'Next retry',
  { label: 'Actions', hidden: true },
];
const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const message = (e: unknown) => (e instanceof Error ? e.message : MESSAGES.failed);

function Outcome({ a }: { a: WebhookAttemptView }) {
  return (
    <span className={a.ok ? tables.ok : tables.bad}>
      {a.statusCode ?? 'No answer'}
      {a.error && a.statusCode === null && <span className={tables.detail}>{a.error}</span>}
    </span>
  );
}

export default function WebhookLog() {
  const [failedOnly, setFailedOnly] = useState(false);
  const [list, setList] = useState<WebhookAttemptView[] | null>(null);
  const [nextBefore, setNextBefore] = useState<number | null>(null);
  const [error, setError] = useState('');
  const [sending, setSending] = useState<string | null>(null);
  const [refresh, setRefresh] = useState(0);

  useEffect(() => {
    let live = true;
    developerToolsApi.webhookDeliveries({ failedOnly, limit: WEBHOOK_LOG.defaultPageSize }).then(
      (page) => {
        if (!live) return;
        setList(page.list);
        setNextBefore(page.nextBefore);
        setError('');
      },
      (e: unknown) => live && setError(message(e)),
    );
    return () => {
      live = false;
    };
  }, [failedOnly, refresh]);

  const more = async () => {
    if (nextBefore === null) return;
    try {
      const page = await developerToolsApi.webhookDeliveries({
        failedOnly,
        before: nextBefore,
        limit: WEBHOOK_LOG.defaultPageSize,
      });
      setList((shown) => [...(shown ?? []), ...page.list]);
      setNextBefore(page.nextBefore);
    } catch (e) {
      setError(message(e));
    }
  };

  const redeliver = async (a: WebhookAttemptView) => {
    setSending(a.deliveryId);
    try {
      const attempt = await developerToolsApi.redeliver(a.deliveryId);
      // The new attempt goes on top, as the log lists it (newest first); with "failed only", only a failure joins.
      if (!failedOnly || !attempt.ok) setList((shown) => [attempt, ...(shown ?? [])]);
      showToast(
        attempt.ok
          ? WEBHOOK_LOG_MESSAGES.redelivered
          : `${WEBHOOK_LOG_MESSAGES.redeliverFailed}: ${attempt.error ?? attempt.statusCode}`,
        attempt.ok ? 'success' : 'error',
      );
    } catch (e) {
      setError(message(e));
    } finally {
      setSending(null);
    }
  };

  return (
    <section className={`card ${dashboard.section}`} aria-labelledby="webhooks-heading">
      <ListHead id="webhooks-heading" title="Webhook deliveries" onRefresh={() => setRefresh((n) => n + 1)} />
      <p className="muted">
        Every attempt to send a task webhook to your callbackUrl, with what your endpoint answered. Redeliver sends the
        same event (same webhook-id) with a fresh signature.
      </p>
      <div className={`cluster ${styles.filters}`}>
        <label className={styles.toggle}>
          <input
            type="checkbox"
            checked={failedOnly}
            onChange={(e) => {
              setList(null);
              setFailedOnly(e.target.checked);
            }}
          />
          Failed only
        </label>
      </div>
      <StackTable
        rows={list}
        error={error}
        loading="Loading deliveries…"
        empty={failedOnly ? WEBHOOK_LOG_MESSAGES.emptyFailed : WEBHOOK_LOG_MESSAGES.empty}
        labelledBy="webhooks-heading"
        testId="webhook-log"
        columns={COLUMNS}
      >
        {(a) => (
          <tr key={a.id} data-attempt-id={a.id}>
            <td data-label="Time">
              {timeFormat.format(a.createdAt)}
              <span className={tables.detail}>
                Attempt {a.attempt}
                {a.trigger === 'redeliver' ? ' · redelivery' : ''}
              </span>
            </td>
            <td data-label="Event">
              {a.eventType}
              <span className={`${tables.detail} ${dashboard.code}`}>{a.taskId}</span>
            </td>
            <td data-label="URL" className={styles.url}>
              {a.url}
            </td>
            <td data-label="Status">
              <Outcome a={a} />
            </td>
            <td data-label="Latency" className={tables.num}>
              {a.latencyMs} ms
            </td>
            <td data-label="Answer">
              {a.responseHead ? (
                <code className={styles.head}>{a.responseHead}</code>
              ) : (
                <span className="muted">—</span>
              )}
            </td>
            <td data-label="Next retry">
              {a.nextRetryAt === null ? <span className="muted">—</span> : timeFormat.format(a.nextRetryAt)}
            </td>
            <td data-label="" className={styles.action}>
              <button
                type="button"
                className="button button--ghost"
                disabled={sending === a.deliveryId}
                onClick={() => void redeliver(a)}
                aria-label={`Redeliver ${a.eventType} of task ${a.taskId}`}
              >
                {sending === a.deliveryId ? 'Sending…' : 'Redeliver'}
              </button>
            </td>
          </tr>
        )}
      </StackTable>
      {nextBefore !== null && (
        <button type="button" className={`button button--ghost ${styles.more}`} onClick={() => void more()}>
          Load older attempts
        </button>
      )}
    </section>
  );
}
