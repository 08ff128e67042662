// Astro site configuration: a static export (every route pre-rendered) with React islands (DESIGN.md).
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';

export default defineConfig({
  output: 'static',
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  integrations: [react()],
  // Astro hashes every inline script and style into a CSP <meta>; the server adds the rest of the policy.
  security: { csp: true },
  vite: {
    worker: { format: 'es' },
    // src/lib/spec is constants and pure functions only, and everything imports it through its index: saying so lets
    // the bundle keep just the spec modules a page uses, which keeps the tracking stub in its 3 KB (bench/tracking.mjs).
    build: { rollupOptions: { treeshake: { moduleSideEffects: (id) => !id.includes('/src/lib/spec/') } } },
  },
  devToolbar: { enabled: false },
  // Shiki highlights with inline styles, which the CSP forbids; code samples are styled by our own CSS.
  markdown: { syntaxHighlight: false },
});
