// The /payment page shows the result named in its query, whatever spelling the provider used.
import { describe, expect, it } from 'vitest';
import { paymentStatusFromQuery } from './payment-status';

describe('paymentStatusFromQuery', () => {
  it.each([
    ['?status=success', 'success'],
    ['?status=SUCCEEDED', 'success'],
    ['?result=paid', 'success'],
    ['?status=canceled', 'canceled'],
    ['?status=cancelled', 'canceled'],
    ['?status=pending', 'pending'],
    ['?status=processing', 'pending'],
    ['?status=failed', 'failed'],
    ['?status=<script>', 'unknown'],
    ['', 'unknown'],
  ])('%s → %s', (query, status) => {
    expect(paymentStatusFromQuery(query)).toBe(status);
  });
});
