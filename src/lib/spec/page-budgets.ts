// First-load JavaScript budgets of the built pages: what a page loads before anyone interacts with it —
// its script tags, modulepreloads, eagerly hydrated islands and everything they import statically, plus inline scripts —
// summed as each file's gzip size. tests/structure/page-budgets.test.ts holds the build to them; bench/page-weight.mjs prints them.

const KB = 1024;

export const PAGE_BUDGETS = {
  /** Pages with no island of their own: the shell (nav, session, cookie banner, toasts) and the tracking stub. */
  static: 10 * KB,
  /**
   * A playground screen. React 19.3 alone is 70 KB gzip here (react-dom's client 65 KB; ~58 KB is its brotli size), so
   * a 75 KB goal cannot hold with any screen on it. This guards what is there now: React, the shell (~9 KB) and a
   * screen's ~22 KB; the like-for-like goal, 87 KB, needs the screens' secondary panels to load on demand.
   */
  playground: 105 * KB,
  /** The dashboard: React, its three tabs and the shell. */
  dashboard: 90 * KB,
  /**
   * An API reference operation page: its code samples and Try it are React islands hydrated when visible, so React loads
   * with the page. The static pages' 10 KB would hold here too once those two load on interaction: not done yet.
   * (92: the account client they share with the dashboard grew by the named keys, request log and share links.)
   */
  reference: 92 * KB,
  /** The public page of one shared result: the shell plus the small script that fetches the result and shows it. */
  shared: 12 * KB,
} as const;

export type PageKind = keyof typeof PAGE_BUDGETS;

/** Which budget a route (as '/playground/speech', '/404') is held to. */
export function pageKind(route: string): PageKind {
  if (route.startsWith('/playground/')) return 'playground';
  if (route.startsWith('/api-reference/')) return 'reference';
  if (route === '/dashboard') return 'dashboard';
  if (route === '/shared') return 'shared';
  return 'static';
}
