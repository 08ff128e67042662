// Previous / Page n of m / Next for the dashboard's paged lists; nothing when everything fits on one page.
import styles from './tables.module.css';

interface Props {
  label: string;
  page: number;
  /** The list's length and page size, as its pages come. */
  total: number;
  pageSize: number;
  onPage: (page: number) => void;
}

export default function Pager({ label, page, total, pageSize, onPage }: Props) {
  const pages = Math.ceil(total / pageSize);
  if (pages <= 1) return null;
  return (
    <nav className={styles.pager} aria-label={label}>
      <button type="button" className="button button--ghost" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button type="button" className="button button--ghost" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
