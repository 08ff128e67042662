// Entry point of src/lib/spec, the single source of truth for constants, prices, validation rules and messages.

export * from './constants';
export * from './messages';
export * from './errors';
export * from './charge';
export * from './prices';
export * from './validation';
export * from './quote';
export * from './accounts';
export * from './tracking';
export * from './monitoring';
export * from './storage-keys';
export * from './tasks';
export * from './engines';
export * from './payments';
export * from './contact';
export * from './public-api';
