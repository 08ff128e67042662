// First-load JavaScript budgets of the built pages: what a page loads before anyone interacts with it — its script
// tags, modulepreloads, eagerly hydrated islands and everything they import statically, plus inline scripts — summed as
// each file's gzip size. tests/structure/page-budgets.test.ts holds the build to them; bench/page-weight.mjs prints
// them.

const KB = 1024;

export const PAGE_BUDGETS = {
  /** Pages with no island of their own: the shell (nav, session, cookie banner, toasts) and the tracking stub. */
  static: 10 * KB,
  /**
   * A playground screen. React 19.3 alone is 67 KB gzip here (react-dom's client 64 KB; ~58 KB is its brotli size), so
   * the 75 KB cannot hold with any screen on it. This guards what is there now: React, the shell (~6 KB) and a
   * screen's form (~25 KB); the run cards, the history, the examples and View code load when they are needed.
   */
  playground: 100 * KB,
  /** The dashboard: React, its three tabs and the shell. */
  dashboard: 90 * KB,
  /**
   * An API reference operation page: the static pages' budget. Its code samples are pre-rendered and its script (~0.6
   * KB) only fills in the API origin and marks a guest; the tabs, Copy and a signed-in user's key load when wanted, and
   * the React Try it form (with React) on its click (src/islands/reference/reference-page.ts).
   */
  reference: 10 * KB,
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
