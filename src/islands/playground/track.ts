// Reports the playground's meaningful actions to the site tracker (SPEC.md §5 event ids and actions).
import type { TrackEvent } from '../../lib/tracking';

/** Ids have 3 segments without a log prefix (SPEC.md §5): playground_<screen>_<what>. Screens use no underscores. */
export function trackAction(
  screen: string,
  what: string,
  action: TrackEvent['action'] = 'click',
  logmap: Record<string, unknown> = {},
): void {
  // The tracker is started by BaseLayout; in unit tests or before it loads there is simply nothing to report to.
  if (typeof window === 'undefined') return;
  window.dreamTracker?.report({
    id: `playground_${screen.replace(/_/g, '')}_${what.replace(/_/g, '')}`,
    action,
    logmap,
  });
}
