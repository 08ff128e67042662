// Runs and credits per day and per feature over the last 30 days: stacked bars drawn as SVG by hand, a legend, and the
// same figures as a table.
import { useEffect, useState } from 'react';
import { dashboardApi, type UsageReport } from '../../lib/api';
import { featureLabel, MESSAGES, USAGE } from '../../lib/product-rules';
import dashboard from './Dashboard.module.css';
import tables from './tables.module.css';
import styles from './UsageChart.module.css';

const W = 600;
const H = 180;
const LEFT = 32;
const BOTTOM = 20;
const OTHER = 'other';

/** What the bars count: credits used, or runs (free ones included). */
export type UsageMetric = 'credits' | 'runs';

interface Series {
  key: string;
  label: string;
  values: number[];
  total: number;
}

const unit = (metric: UsageMetric, n: number) =>
  metric === 'credits' ? (n === 1 ? 'credit' : 'credits') : n === 1 ? 'run' : 'runs';

/** The biggest features (by the metric shown) in their own colour, the rest summed as "Other" (USAGE.maxSeries). */
export function chartSeries(report: UsageReport, metric: UsageMetric = 'credits'): Series[] {
  const label = (f: string) => (f === USAGE.deletedFeature ? USAGE.deletedLabel : featureLabel(f));
  const shown = report.features
    .map((f) => ({
      key: f.feature,
      label: label(f.feature),
      values: f[metric],
      total: metric === 'credits' ? f.total : f.totalRuns,
    }))
    .filter((s) => s.total > 0)
    .sort((a, b) => b.total - a.total || a.key.localeCompare(b.key));
  const own = shown.slice(0, USAGE.maxSeries);
  const rest = shown.slice(USAGE.maxSeries);
  if (rest.length === 0) return own;
  const values = report.days.map((_, i) => rest.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  return [...own, { key: OTHER, label: 'Other', values, total: values.reduce((a, b) => a + b, 0) }];
}

/** A round top for the scale: 1, 2 or 5 times a power of ten, at least the largest day. */
function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].find((m) => m * power >= value) ?? 10) * power;
}

const dayLabel = (iso: string) =>
  new Date(`${iso}T00:00:00`).toLocaleDateString(undefined, { month: 'short', day: 'numeric' });

export function UsageBars({ report, metric = 'credits' }: { report: UsageReport; metric?: UsageMetric }) {
  const series = chartSeries(report, metric);
  const totals = report.days.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const total = totals.reduce((a, b) => a + b, 0);
  const top = niceMax(Math.max(0, ...totals));
  const slot = (W - LEFT) / report.days.length;
  const y = (v: number) => ((H - BOTTOM) * v) / top;
  return (
    <figure className={styles.figure}>
      <svg
        className={styles.chart}
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-labelledby="usage-title"
        data-testid="usage-chart"
      >
        <title id="usage-title">{`${metric === 'credits' ? 'Credits used' : 'Runs'} per day over the last ${report.days.length} days: ${total} in all`}</title>
        <line className={styles.axis} x1={LEFT} x2={W} y1={H - BOTTOM} y2={H - BOTTOM} />
        <line className={styles.axis} x1={LEFT} x2={W} y1={0.5} y2={0.5} strokeDasharray="3 3" />
        <text x={LEFT - 4} y={10} textAnchor="end">
          {top}
        </text>
        <text x={LEFT - 4} y={H - BOTTOM} textAnchor="end">
          0
        </text>
        {report.days.map((day, i) => {
          let base = H - BOTTOM;
          return (
            <g key={day}>
              {series.map((s, k) => {
                const v = s.values[i] ?? 0;
                if (v === 0) return null;
                const h = Math.max(1, y(v));
                base -= h;
                return (
                  <rect
                    key={s.key}
                    className={styles[`s${k}`]}
                    x={LEFT + i * slot + 1}
                    y={base}
                    width={Math.max(1, slot - 2)}
                    height={h}
                    data-day={day}
                    data-feature={s.key}
                  >
                    <title>{`${dayLabel(day)}: ${s.label}, ${v} ${unit(metric, v)}`}</title>
                  </rect>
                );
              })}
              {i % 7 === (report.days.length - 1) % 7 && (
                <text x={LEFT + i * slot + slot / 2} y={H - 4} textAnchor="middle">
                  {dayLabel(day)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <ul className={styles.legend}>
          {series.map((s, k) => (
            <li key={s.key}>
              <span className={`${styles.swatch} ${styles[`s${k}`]}`} aria-hidden="true" />
              {s.label}: {s.total}
            </li>
          ))}
        </ul>
      </figcaption>
      <details className={dashboard.section}>
        <summary>Show the figures as a table</summary>
        <table className={tables.stack}>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {series.map((s) => (
                <th scope="col" key={s.key} className={tables.num}>
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {report.days.map((day, i) =>
              totals[i] === 0 ? null : (
                <tr key={day}>
                  <td data-label="Day">{dayLabel(day)}</td>
                  {series.map((s) => (
                    <td key={s.key} data-label={s.label} className={tables.num}>
                      {s.values[i] ?? 0}
                    </td>
                  ))}
                </tr>
              ),
            )}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

export default function UsageChart() {
  const [report, setReport] = useState<UsageReport | null>(null);
  const [error, setError] = useState('');
  const [chosen, setChosen] = useState<UsageMetric | null>(null);
  useEffect(() => {
    let live = true;
    dashboardApi.usage().then(
      (r) => live && setReport(r),
      (e: unknown) => live && setError(e instanceof Error ? e.message : MESSAGES.failed),
    );
    return () => {
      live = false;
    };
  }, []);
  // Free runs cost nothing: an account that only made those sees its runs first, not an empty credits chart.
  const metric: UsageMetric = chosen ?? (report && report.total === 0 ? 'runs' : 'credits');
  const used = report !== null && (report.total > 0 || report.totalRuns > 0);
  return (
    <section className={`card ${dashboard.section}`} aria-labelledby="usage-heading">
      <div className={`spread ${dashboard.sectionHead}`}>
        <h2 id="usage-heading">Usage, last {USAGE.days} days</h2>
        {report && (
          <span className="muted" data-testid="usage-total">
            {report.totalRuns} {unit('runs', report.totalRuns)} · {report.total} {unit('credits', report.total)}
          </span>
        )}
      </div>
      {error && (
        <p className={dashboard.error} role="alert">
          {error}
        </p>
      )}
      {!report && !error && <p className="muted">Loading usage…</p>}
      {report && !used && (
        <p className="muted">
          No runs in the last {USAGE.days} days. Generate something in the playground or through the API and it shows
          here by day and feature.
        </p>
      )}
      {report && used && (
        <>
          <div className={styles.metricChoice} role="group" aria-label="Show">
            {(['runs', 'credits'] as const).map((m) => (
              <button
                key={m}
                type="button"
                className="button button--ghost"
                aria-pressed={metric === m}
                onClick={() => setChosen(m)}
              >
                {m === 'runs' ? 'Runs' : 'Credits'}
              </button>
            ))}
          </div>
          <UsageBars report={report} metric={metric} />
        </>
      )}
    </section>
  );
}
