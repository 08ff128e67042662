// Payment calls: a Checkout Session for the signed-in user and a credit pack (docs/payments.md).
import { apiRequest } from './client';

export const paymentsApi = {
  checkout: (packId: string) => apiRequest<{ sessionId: string; url: string }>('/payment/checkout', { packId }),
};
