// The code samples' one inline script, right after their markup: it writes the API origin into the sample shown before
// the first paint, so the rest of its line never moves once the page is shown (a layout shift). The languages waiting
// in <template>s take it from the shown one when a tab brings them in (reference-controls.ts). astro.config.mjs hashes
// this text into the CSP, since Astro hashes only the scripts it bundles.

/**
 * The build's PUBLIC_API_BASE (`data-api-base`), else this site's origin (`self.origin`: one process serves both), as
 * the API client decides. Written short: it counts toward the reference pages' 10 KB of first-load JavaScript
 * (src/lib/product-rules/page-budgets.ts).
 */
export const SAMPLE_ORIGIN_SCRIPT = `(a=>a.querySelectorAll('[data-origin]').forEach(e=>e.textContent=a.dataset.apiBase||origin))(document.currentScript.previousElementSibling)`;
