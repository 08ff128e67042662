// The pricing of SPEC.md §9: charges, the price table, quote(), the features, what each one is charged on, and what
// one run costs (run-price.ts, the only place a run's credits are computed).
export * from './charge';
export * from './prices';
export * from './quote';
export * from './features';
export * from './price-input';
export * from './run-price';
