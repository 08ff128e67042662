// Loads the React modal host the first time a modal is asked for (a click on Log In, the after-login steps, an island),
// so a page that never opens one never downloads React for it (static pages stay within their budget,
// src/lib/product-rules/page-budgets.ts).
import { $modal } from '../../lib/stores/modals';

let loading: Promise<void> | null = null;

/** Starts watching the modal store; the first modal wanted mounts the host, which then renders every later one. */
export function watchModals(): () => void {
  return $modal.subscribe((name) => {
    if (!name || loading) return;
    loading = import('./mount-modals').then(({ mountModals }) => mountModals());
  });
}
