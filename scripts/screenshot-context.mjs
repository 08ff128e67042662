// The browser context a screenshot is taken in (scripts/screenshots.mjs and its states): a phone's or a laptop-ish
// viewport for the width, and the site's storage as a visitor's browser keeps it.
/** A phone is taller than it is wide; the others get a laptop-ish height. Full-page shots show the rest. */
const heightOf = (width) => (width < 600 ? 844 : 900);

/**
 * A new context of `browser` `width` px wide whose localStorage holds `stored` (a session's keys, or none) beside the
 * cookie banner declined (SPEC.md §3 keys), so the banner does not cover the page.
 */
export async function screenshotContext(browser, width, stored = {}) {
  const context = await browser.newContext({
    viewport: { width, height: heightOf(width) },
    deviceScaleFactor: 1,
    isMobile: width < 600,
    hasTouch: width < 600,
  });
  await context.addInitScript(
    (items) => {
      for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);
    },
    { 'cookie-accpet': 'declined', ...stored },
  );
  return context;
}
