// Browser-only: starts the site's tracker from BaseLayout, wires page view, stay time and page leave, exposes
// window.dreamTracker.
import { DEFAULT_APP_KEY } from '../product-rules';
import { createTracker, sampled, type Tracker } from './tracker';

declare global {
  interface Window {
    /** The page's tracker, for the site's own scripts, operators in the console and end-to-end tests. */
    dreamTracker?: Tracker;
  }
}

/** Runs once per page: BaseLayout's module script is evaluated once per document. */
export function startSiteTracking(): Tracker {
  const idle = (run: () => void) =>
    'requestIdleCallback' in window ? requestIdleCallback(run, { timeout: 2000 }) : setTimeout(run, 200);
  const tracker = createTracker({
    connect: () => import('./connect').then((m) => m.connectWorker()),
    idle,
    storage: localStorage,
    onStorage: (listener) => addEventListener('storage', listener),
    sendBeacon: (url, body) => navigator.sendBeacon(url, body),
  });
  const appKey = import.meta.env.PUBLIC_TRACKING_APP_KEY || DEFAULT_APP_KEY;
  const domain = import.meta.env.PUBLIC_TRACKING_DOMAIN || '';
  tracker.init({ appKey, domain });
  window.dreamTracker = tracker;

  if (document.documentElement.dataset.trackPage !== 'false')
    tracker.reportPageView(location.pathname, document.referrer);
  // SPEC.md §4 stay time ends on whichever of these comes first (Chromium fires pagehide before visibilitychange); it
  // must be reported before reportLeft() so it leaves with the page's other unsent entries (stash or beacon).
  const stay = () => tracker.reportStay(location.pathname);
  document.addEventListener('visibilitychange', () =>
    document.visibilityState === 'hidden' ? stay() : tracker.resetStart(),
  );
  // pagehide, never unload: unload is deprecated and keeps pages out of the back/forward cache.
  addEventListener('pagehide', () => {
    stay();
    tracker.reportLeft();
    tracker.suspend();
  });
  addEventListener('online', tracker.online);
  addEventListener('pageshow', (event) => {
    if (event.persisted) tracker.resetStart();
  });
  if (sampled()) idle(() => void import('./vitals').then((m) => m.reportVitals(domain, appKey, tracker)));
  return tracker;
}
