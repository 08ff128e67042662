// Payment calls: a Checkout Session for the signed-in user and a credit pack (docs/payments.md).
import { apiRequest } from './client';
import type { CheckoutSession } from './types';

export const paymentsApi = {
  checkout: (packId: string) => apiRequest<CheckoutSession>('/payment/checkout', { packId }),
};
