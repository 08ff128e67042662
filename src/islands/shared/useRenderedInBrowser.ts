// Whether this render happens in the browser after hydration: false while the page is pre-rendered and while it
// hydrates.
import { useSyncExternalStore } from 'react';

const neverChanges = () => () => {};

/**
 * Lazy parts (React.lazy inside Suspense) must not be pre-rendered: Astro would stream them as a Suspense boundary with
 * inline scripts, which the page's Content-Security-Policy refuses, and hydration would then fail (React error #419).
 * Render them only when this is true; React renders again right after hydrating, so they appear at once.
 */
export function useRenderedInBrowser(): boolean {
  return useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
}
