// The user-facing message catalogue of SPEC.md §8 (and §5), and the Chinese console warnings of the tracking client.

/** Messages shown to people, exactly as SPEC.md §5 and §8 write them. */
export const MESSAGES = {
  /** A request timed out (§8). The comma is a full-width '，' in the original product. */
  networkError: 'Network error，Please try again later',
  /** Product API code 40001 (§8). */
  notLoggedIn: 'User Not Login',
  /** Fallback when a failure carries no server message, and logout failure (§8). */
  failed: 'Failed',
  sentFailed: 'Sent Failed',
  loginFailed: 'Login Failed',
  submitFailed: 'submit Failed',
  sentSuccessfully: 'Sent Successfully',
  successfully: 'Successfully',
  redeemSuccessfully: 'Redeem Successfully',
  submitSuccessfully: 'submit Successfully',
  copySuccessfully: 'Copy Successfully',
  /** Email failed the §5 shape check. */
  invalidEmail: 'Invalid email address',
  /** Empty invitation code (§5). */
  enterInvitationCode: 'Please enter invitation code',
} as const;

export type MessageKey = keyof typeof MESSAGES;

// The Chinese console warnings of the tracking client (SPEC.md §8) are in tracking-warnings.ts, so the page's tracking
// stub bundles them without the catalogue above.
export { TRACKING_WARNINGS, type TrackingWarningKey } from './tracking-warnings';
