// A dashboard list as a table whose rows stack into labelled cards on phones (no scroll box, so nothing is hidden or
// out of reach), with what it says while loading, on failure and when empty; and a live list's heading with Refresh.
import type { ReactNode } from 'react';
import dashboard from './Dashboard.module.css';
import tables from './tables.module.css';

/** A column heading, as its text or with what sets it apart: `num` columns hold amounts (set right), a `hidden` heading
 * is read aloud but not shown. */
export type Column = string | { label: string; num?: boolean; hidden?: boolean };

interface Props<T> {
  /** null until the first page arrives. */
  rows: readonly T[] | null;
  error?: string;
  loading?: string;
  empty: ReactNode;
  /** The id of the heading that names the table. */
  labelledBy: string;
  testId: string;
  columns: readonly Column[];
  /** One row's <tr>, its cells labelled (data-label) as their columns. */
  children: (row: T) => ReactNode;
}

export default function StackTable<T>({
  rows,
  error,
  loading,
  empty,
  labelledBy,
  testId,
  columns,
  children,
}: Props<T>) {
  return (
    <>
      {error && (
        <p className={dashboard.error} role="alert">
          {error}
        </p>
      )}
      {!rows && !error && <p className="muted">{loading}</p>}
      {rows?.length === 0 && <p className="muted">{empty}</p>}
      {rows && rows.length > 0 && (
        <table className={tables.stack} aria-labelledby={labelledBy} data-testid={testId}>
          <thead>
            <tr>
              {columns.map((column) => {
                const { label, num, hidden } = typeof column === 'string' ? { label: column } : column;
                return (
                  <th key={label} scope="col" className={num ? tables.num : undefined}>
                    {hidden ? <span className="visually-hidden">{label}</span> : label}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>{rows.map(children)}</tbody>
        </table>
      )}
    </>
  );
}

/** A live list's heading (its id names the table) beside the button that fetches the list again. */
export function ListHead({ id, title, onRefresh }: { id: string; title: string; onRefresh: () => void }) {
  return (
    <div className={`spread ${dashboard.sectionHead}`}>
      <h2 id={id}>{title}</h2>
      <button type="button" className="button button--ghost" onClick={onRefresh}>
        Refresh
      </button>
    </div>
  );
}
