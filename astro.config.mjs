// Astro site configuration: a static export (every route pre-rendered) with React islands (DESIGN.md).
import { createHash } from 'node:crypto';
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import { CONSENT_EARLY_SCRIPT } from './src/lib/site/consent-early.ts';
import { SAMPLE_ORIGIN_SCRIPT } from './src/lib/reference/origin-early.ts';
import { NOT_FOUND_EARLY_SCRIPT } from './src/lib/site/not-found-early.ts';

/** The CSP hash of an inline script Astro does not bundle (it hashes only the scripts it processes). */
const scriptHash = (text) => `sha256-${createHash('sha256').update(text).digest('base64')}`;

export default defineConfig({
  output: 'static',
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  integrations: [react()],
  // Astro hashes every inline script and style into a CSP <meta>; the server adds the rest of the policy.
  security: {
    csp: {
      scriptDirective: { hashes: [CONSENT_EARLY_SCRIPT, SAMPLE_ORIGIN_SCRIPT, NOT_FOUND_EARLY_SCRIPT].map(scriptHash) },
    },
  },
  vite: {
    worker: { format: 'es' },
    // src/lib/product-rules is constants and pure functions only, and everything imports it through its index: saying
    // so lets the bundle keep just the product-rules modules a page uses, which keeps the tracking stub in its 3 KB
    // (bench/tracking.mjs). The API client's modules are declarations too, so a static page's shell takes the account
    // calls without the playground's (src/lib/product-rules/page-budgets.ts). The 40001 notice module, which every
    // page's signed-in store listens on, stays a chunk of its own rather than joining the API client's, which a static
    // page loads only when it makes a call.
    build: {
      rollupOptions: {
        treeshake: { moduleSideEffects: (id) => !/\/src\/lib\/(product-rules|api)\//.test(id) },
        output: { manualChunks: (id) => (id.includes('/src/lib/api/not-logged-in.') ? 'not-logged-in' : undefined) },
      },
    },
  },
  devToolbar: { enabled: false },
  // Shiki highlights with inline styles, which the CSP forbids; code samples are styled by our own CSS.
  markdown: { syntaxHighlight: false },
});
