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

/**
 * Console warnings for invalid tracking input. SPEC.md §8 says they are printed in Chinese and §5 says invalid
 * events are dropped; the wording is ours because SPEC.md does not show it.
 */
export const TRACKING_WARNINGS = {
  appKey: 'appKey 必须是非空字符串',
  eventId: '事件 ID 必须是非空字符串，由下划线分隔为 3 段或 5 段（设置前缀时为 2 段），该事件已丢弃',
  eventPrefix: '事件 ID 前缀必须为空，或由下划线分隔为 3 段',
  action:
    '事件行为必须是 click、slide、show、hover、stay、dis、pull、dclick、start、press 之一，该事件已丢弃',
  domain: 'domain 如果传入，必须是字符串，该事件已丢弃',
  logmap: 'logmap 必须是对象（不能是 null 或数组），该事件已丢弃',
} as const;

export type TrackingWarningKey = keyof typeof TRACKING_WARNINGS;
