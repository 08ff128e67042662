// Entry point of src/lib/product-rules, the single source of truth for constants, prices, validation rules and
// messages. Code outside the product rules imports it only through here (eslint.config.js). Its modules have no side
// effects, and the build is told so (astro.config.mjs), so a bundle keeps only the modules it uses: the page's tracking
// stub stays small.

export * from './constants';
export * from './messages';
export * from './errors';
export * from './pricing';
export * from './validation';
export * from './accounts';
export * from './tracking';
export * from './monitoring';
export * from './storage-keys';
export * from './tasks';
export * from './limits';
export * from './voices';
export * from './samples';
export * from './engines';
export * from './payments';
export * from './contact';
export * from './public-api';
export * from './object-storage';
export * from './availability';
export * from './feature-messages';
export * from './signup';
export * from './run-options';
export * from './runs';
export * from './examples';
export * from './ui-copy';
export * from './operability';
export * from './history';
export * from './page-budgets';
export * from './provider-costs';
export * from './media-tools';
export * from './chores';
export * from './live-status';
export * from './developer-tools';
export * from './offer-copy';
export * from './payments-off';
export * from './api-prefixes';
