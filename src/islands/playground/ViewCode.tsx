// "View code": a disclosure under the form that loads the code panel only when opened, so a screen's first load stays
// small.
import { lazy, Suspense, useState } from 'react';
import type { RunRequest } from './code-panel/run-calls';
import own from './disclosures.module.css';

const CodePanel = lazy(() => import('./code-panel/CodePanel'));

export interface ViewCodeProps {
  /** The form's current inputs (plain data): the panel shows the public API call that would run them, live. */
  request: RunRequest;
  cost: number | null;
  costHint?: string;
}

/** Starts loading the panel's code before the click lands, so it usually opens at once. */
const preload = () => void import('./code-panel/CodePanel');

export default function ViewCode(props: ViewCodeProps) {
  const [open, setOpen] = useState(false);
  return (
    <div className={own.viewCode}>
      <button
        type="button"
        className="button button--ghost"
        aria-expanded={open}
        aria-controls="view-code"
        onPointerEnter={preload}
        onFocus={preload}
        onClick={() => setOpen((o) => !o)}
      >
        {open ? 'Hide code' : 'View code'}
      </button>
      {open && (
        <div id="view-code">
          <Suspense fallback={<p className="muted">Loading the code…</p>}>
            <CodePanel {...props} />
          </Suspense>
        </div>
      )}
    </div>
  );
}
