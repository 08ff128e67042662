// Server settings of the end-to-end run for credits: the flows that check balances and charges start accounts at 0 and
// price the offline engines in full, so every run moves credits they can see.

/**
 * Production starts new accounts with SIGNUP_CREDITS and makes runs with no AI model free (NO_MODEL_PRICE=free); both
 * are covered by server/routes/signup-grant.test.ts, server/routes/features.test.ts and the cost-preview island test.
 */
export function billingServerEnv(): Record<string, string> {
  return { SIGNUP_CREDITS: '0', NO_MODEL_PRICE: 'full' };
}
