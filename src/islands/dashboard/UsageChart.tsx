// Credits used per day and per feature over the last 30 days: stacked bars drawn as SVG by hand, a legend, and the same figures as a table.
import { useEffect, useState } from 'react';
import { dashboardApi, type UsageReport } from '../../lib/api';
import { featureLabel, MESSAGES, USAGE } from '../../lib/spec';
import styles from './Dashboard.module.css';

const W = 600;
const H = 180;
const LEFT = 32;
const BOTTOM = 20;
const OTHER = 'other';

interface Series {
  key: string;
  label: string;
  credits: number[];
  total: number;
}

/** The biggest features in their own colour, the rest summed as "Other" (USAGE.maxSeries). */
export function chartSeries(report: UsageReport): Series[] {
  const label = (f: string) => (f === USAGE.deletedFeature ? USAGE.deletedLabel : featureLabel(f));
  const own = report.features.slice(0, USAGE.maxSeries).map((f) => ({ key: f.feature, label: label(f.feature), credits: f.credits, total: f.total }));
  const rest = report.features.slice(USAGE.maxSeries);
  if (rest.length === 0) return own;
  const credits = report.days.map((_, i) => rest.reduce((sum, f) => sum + (f.credits[i] ?? 0), 0));
  return [...own, { key: OTHER, label: 'Other', credits, total: credits.reduce((a, b) => a + b, 0) }];
}

/** A round top for the scale: 1, 2 or 5 times a power of ten, at least the largest day. */
function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].find((m) => m * power >= value) ?? 10) * power;
}

const dayLabel = (iso: string) => new Date(`${iso}T00:00:00`).toLocaleDateString(undefined, { month: 'short', day: 'numeric' });

export function UsageBars({ report }: { report: UsageReport }) {
  const series = chartSeries(report);
  const totals = report.days.map((_, i) => series.reduce((sum, s) => sum + (s.credits[i] ?? 0), 0));
  const top = niceMax(Math.max(0, ...totals));
  const slot = (W - LEFT) / report.days.length;
  const y = (v: number) => ((H - BOTTOM) * v) / top;
  return (
    <figure className={styles.figure}>
      <svg className={styles.chart} viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="usage-title" data-testid="usage-chart">
        <title id="usage-title">{`Credits used per day over the last ${report.days.length} days: ${report.total} in all`}</title>
        <line className={styles.axis} x1={LEFT} x2={W} y1={H - BOTTOM} y2={H - BOTTOM} />
        <line className={styles.axis} x1={LEFT} x2={W} y1={0.5} y2={0.5} strokeDasharray="3 3" />
        <text x={LEFT - 4} y={10} textAnchor="end">{top}</text>
        <text x={LEFT - 4} y={H - BOTTOM} textAnchor="end">0</text>
        {report.days.map((day, i) => {
          let base = H - BOTTOM;
          return (
            <g key={day}>
              {series.map((s, k) => {
                const v = s.credits[i] ?? 0;
                if (v === 0) return null;
                const h = Math.max(1, y(v));
                base -= h;
                return (
                  <rect key={s.key} className={styles[`s${k}`]} x={LEFT + i * slot + 1} y={base} width={Math.max(1, slot - 2)} height={h} data-day={day} data-feature={s.key}>
                    <title>{`${dayLabel(day)}: ${s.label}, ${v} ${v === 1 ? 'credit' : 'credits'}`}</title>
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
      <details className={styles.section}>
        <summary>Show the figures as a table</summary>
        <table className={styles.stack}>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {series.map((s) => (
                <th scope="col" key={s.key} className={styles.num}>
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
                    <td key={s.key} data-label={s.label} className={styles.num}>
                      {s.credits[i] ?? 0}
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
  return (
    <section className={`card ${styles.section}`} aria-labelledby="usage-heading">
      <div className={styles.sectionHead}>
        <h2 id="usage-heading">Credits used, last {USAGE.days} days</h2>
        {report && (
          <span className="muted" data-testid="usage-total">
            {report.total} {report.total === 1 ? 'credit' : 'credits'}
          </span>
        )}
      </div>
      {error && <p className={styles.error} role="alert">{error}</p>}
      {!report && !error && <p className="muted">Loading usage…</p>}
      {report && report.total === 0 && <p className="muted">No credits used in the last {USAGE.days} days. Generate something in the playground or through the API and it shows here by day and feature.</p>}
      {report && report.total > 0 && <UsageBars report={report} />}
    </section>
  );
}
