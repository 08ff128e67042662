// Dashboard usage export: a range of UTC days downloaded as CSV, one row per task or credit movement (streamed by the
// server).
import { useState, type FormEvent } from 'react';
import { developerToolsApi } from '../../lib/api/developer-tools';
import { MESSAGES, USAGE_EXPORT, USAGE_EXPORT_MESSAGES } from '../../lib/product-rules';
import dashboard from './Dashboard.module.css';
import styles from './DeveloperTools.module.css';
import inline from './inline-form.module.css';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const monthStart = () => `${day(Date.now()).slice(0, 8)}01`;

export default function UsageExport() {
  const [from, setFrom] = useState(monthStart);
  const [to, setTo] = useState(() => day(Date.now()));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const download = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const file = await developerToolsApi.usageCsv(from, to);
      const url = URL.createObjectURL(file);
      const link = document.createElement('a');
      link.href = url;
      link.download = USAGE_EXPORT_MESSAGES.fileName(from, to);
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (err) {
      setError(err instanceof Error ? err.message : MESSAGES.failed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={`card ${dashboard.section}`} aria-labelledby="export-heading">
      <h2 id="export-heading">Export usage</h2>
      <p className="muted">
        Your tasks and credit movements as CSV, one row per task or ledger entry: feature, engine, credits held, charged
        and refunded, status and the request id of API calls. Days are UTC; up to {USAGE_EXPORT.maxRangeDays} days at
        once. The API gives the same as JSON (POST /api/usage/export).
      </p>
      <form className={`${inline.inlineForm} ${styles.range}`} onSubmit={(e) => void download(e)}>
        <label>
          From
          <input type="date" required value={from} max={to} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          To
          <input type="date" required value={to} min={from} onChange={(e) => setTo(e.target.value)} />
        </label>
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Preparing…' : 'Download CSV'}
        </button>
      </form>
      {error && (
        <p className={dashboard.error} role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
