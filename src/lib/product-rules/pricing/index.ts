// The pricing of SPEC.md §9: charges, the price table, quote(), the features and what each one is charged on.

export * from './charge';
export * from './prices';
export * from './quote';
export * from './features';
export * from './price-input';
