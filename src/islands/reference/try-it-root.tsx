// Renders the React Try it form into its area of a reference page; reference-controls.ts imports this, and React with
// it, on demand.
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import type { SampleSpec } from '../../lib/reference/samples';
import TryIt from './TryIt';

/** Renders before returning, so the caller can move focus into the form at once. */
export function renderTryIt(host: HTMLElement, spec: SampleSpec, baseUrl: string): void {
  const root = createRoot(host);
  flushSync(() => root.render(<TryIt spec={spec} baseUrl={baseUrl} />));
}
