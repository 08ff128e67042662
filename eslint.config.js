// One linter for the whole repository: recommended JavaScript, TypeScript and React hooks rules, zero warnings.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Import boundaries (DESIGN.md "Layout"), matched on the specifier as written, so relative paths count:
// `^(\.\./)+server/` is any climb out of src/ into server/. tests/structure/import-rules.test.ts proves they fire.
const UP = '^(\\.\\./)+';
const noServer = {
  regex: `${UP}server(/|$)`,
  message:
    'src/ is browser code and never imports server/; shared code lives in src/lib (the API contract in src/lib/api-contract).',
};
// Island tests drive the real app in-process (real parts, not mocks), so test files may reach its harness, nothing
// else.
const noServerButHarness = { ...noServer, regex: `${UP}server(/(?!test-support(/|$))|$)` };
const noIslands = {
  regex: `${UP}islands(/|$)`,
  message: 'src/lib is shared by islands, worker and server, so it never imports src/islands.',
};
// The worker's API types live in src/lib/tracking/types.ts, so nothing under src/lib imports src/worker, not even a
// type.
const noWorker = {
  regex: `${UP}worker(/|$)`,
  message:
    'src/lib is shared by islands, worker and server, so it never imports src/worker (its API types are in src/lib/tracking/types).',
};
const SERVER_MAY_USE = ['lib/product-rules(/|$)', 'lib/api-contract(/|$)', 'lib/api/types$'];
const serverMessage =
  'server/ imports from src/ only src/lib/product-rules, src/lib/api-contract and src/lib/api/types.';
const serverToSrc = { regex: `${UP}src/(?!${SERVER_MAY_USE.join('|')})`, message: serverMessage };
// Server tests also check browser clients against the real server: the SDK and the tracking batch cipher.
const serverTestToSrc = {
  regex: `${UP}src/(?!${[...SERVER_MAY_USE, 'lib/sdk(/|$)', 'lib/tracking/(cipher|types)$'].join('|')})`,
  message: `${serverMessage} Tests may also use src/lib/sdk and src/lib/tracking/{cipher,types}.`,
};
// The product rules have one entry point: its modules are imported as `…/lib/product-rules`, never
// `…/lib/product-rules/<module>`, from anywhere outside it (its own modules import one another as ./x). The build
// tree-shakes the index (astro.config.mjs), so the page's tracking stub imports it too and stays within its budget.
const noDeepRules = {
  regex: '^\\.{1,2}/(.*/)?product-rules/(?!index$)',
  message: 'Import the product rules through its index (src/lib/product-rules), not one of its modules.',
};
// src/lib/sdk is a package: its package.json points a folder import at the built bundle, which a clean checkout lacks.
const noSdkFolder = {
  regex: '^\\.{1,2}/(.*/)?lib/sdk$',
  message:
    'Import the SDK as …/lib/sdk/index: the folder is a package whose entry is its build output (src/lib/sdk/dist).',
};
// Test files and the *.fixtures.ts set-up they share (test-only, never imported by shipped code).
const TESTS = '**/*.{test,fixtures}.{ts,tsx}';
/** One flat-config entry per file group; later entries replace earlier ones, so each lists all its patterns. */
const boundaries = (files, patterns) => ({
  files,
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
});

export default defineConfig(
  {
    ignores: [
      'dist/',
      'dist-server/',
      'data/',
      '.astro/',
      'node_modules/',
      'test-results/',
      'playwright-report/',
      'bench/out/',
      'src/lib/sdk/dist/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Prettier (.prettierrc.json) lays code out at 120 columns but leaves comments and string literals as written:
      // comments wrap at the same width; a long string or URL may run past it rather than be cut.
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
    },
  },
  {
    files: ['src/islands/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  boundaries(['**/*.{js,mjs,cjs,ts,tsx,mts,cts}'], [noDeepRules, noSdkFolder]),
  boundaries(['src/**'], [noServer, noDeepRules, noSdkFolder]),
  boundaries([`src/${TESTS}`], [noServerButHarness, noDeepRules, noSdkFolder]),
  boundaries(['src/lib/**'], [noServer, noIslands, noWorker, noDeepRules, noSdkFolder]),
  boundaries([`src/lib/${TESTS}`], [noServerButHarness, noIslands, noWorker, noDeepRules, noSdkFolder]),
  boundaries(['server/**'], [serverToSrc, noDeepRules, noSdkFolder]),
  boundaries([`server/${TESTS}`], [serverTestToSrc, noDeepRules, noSdkFolder]),
);
