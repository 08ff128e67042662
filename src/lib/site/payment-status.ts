// Reads the payment result the payment provider put in the /payment query (success, canceled, pending, failed).

export type PaymentStatus = 'success' | 'canceled' | 'pending' | 'failed' | 'unknown';

const ALIASES: Record<string, PaymentStatus> = {
  success: 'success',
  succeeded: 'success',
  paid: 'success',
  complete: 'success',
  canceled: 'canceled',
  cancelled: 'canceled',
  cancel: 'canceled',
  pending: 'pending',
  processing: 'pending',
  failed: 'failed',
  fail: 'failed',
  error: 'failed',
};

export function paymentStatusFromQuery(search: string): PaymentStatus {
  const params = new URLSearchParams(search);
  const raw = (params.get('status') ?? params.get('result') ?? '').trim().toLowerCase();
  return ALIASES[raw] ?? 'unknown';
}
