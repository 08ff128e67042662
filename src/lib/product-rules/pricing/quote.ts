// Turns the SPEC.md §9 price table into a credit amount; shared by the UI cost preview and the server charge.

import type { Charge } from './charge';
import { priceItem } from './prices';

/** What was measured for a task. Only the measure the item's charge uses is required. */
export interface QuoteParams {
  /** Length in seconds (per-second items); fractions are rounded up to whole seconds. */
  seconds?: number;
  /** Number of characters (per-characters items); a whole number. */
  characters?: number;
  /** Length in minutes (per-minute items); fractions are rounded up to whole minutes. */
  minutes?: number;
  /** How many such items or tasks; a whole number, default 1. Multiplies every kind of charge. */
  count?: number;
}

export type QuoteErrorCode = 'unknownItem' | 'missingParam' | 'invalidParam';

/** Thrown by quote() for an unknown item or a missing or invalid measure; the message says which. */
export class QuoteError extends Error {
  override readonly name = 'QuoteError';
  readonly code: QuoteErrorCode;
  /** The offending parameter, when a parameter is at fault. */
  readonly param: keyof QuoteParams | undefined;

  constructor(code: QuoteErrorCode, message: string, param?: keyof QuoteParams) {
    super(message);
    this.code = code;
    this.param = param;
  }
}

type Measure = 'seconds' | 'characters' | 'minutes';

/** A required measure: present, a finite number, not negative, and whole when `whole` is set. */
function measure(params: QuoteParams, name: Measure, itemId: string, whole = false): number {
  const value = params[name];
  if (value === undefined) {
    throw new QuoteError('missingParam', `Price item '${itemId}' is charged by ${name}; give ${name}`, name);
  }
  checkNumber(value, name, whole);
  return value;
}

function checkNumber(value: unknown, name: keyof QuoteParams, whole: boolean): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new QuoteError('invalidParam', `${name} must be a finite number of 0 or more, got ${String(value)}`, name);
  }
  if (whole && !Number.isInteger(value)) {
    throw new QuoteError('invalidParam', `${name} must be a whole number, got ${value}`, name);
  }
}

/** Credits for one item or task under a charge, rounding every started unit up (SPEC.md §9). */
function unitCredits(charge: Charge, params: QuoteParams, itemId: string): number {
  switch (charge.kind) {
    case 'flat':
      return charge.credits;
    case 'perSecond':
      return Math.ceil(measure(params, 'seconds', itemId)) * charge.credits;
    case 'perCharacters':
      // ceil gives at least one block as soon as there is one character.
      return Math.ceil(measure(params, 'characters', itemId, true) / charge.characters) * charge.credits;
    case 'perMinute':
      return Math.ceil(measure(params, 'minutes', itemId)) * charge.credits;
    case 'free':
      return 0;
  }
}

/**
 * The credits a task costs: per second ceil(seconds) × credits, per characters ceil(characters / n) × credits,
 * per minute ceil(minutes) × credits, flat credits, free 0; all multiplied by count (default 1).
 * Throws QuoteError for an unknown item id or a missing, negative, non-finite or (for characters and
 * count) fractional parameter. Measures the item does not use are ignored.
 */
export function quote(itemId: string, params: QuoteParams = {}): number {
  const item = priceItem(itemId);
  if (!item) throw new QuoteError('unknownItem', `Unknown price item '${itemId}'`);
  const count = params.count ?? 1;
  checkNumber(count, 'count', true);
  return unitCredits(item.charge, params, itemId) * count;
}
