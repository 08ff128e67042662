// The API's error codes: the SPEC.md §8 codes plus the ones our server adds, one number per kind of failure.

/** Envelope `code` values. 0 and 40001 come from SPEC.md §8; the rest follow the same 5-digit shape. */
export const ERROR_CODES = {
  ok: 0,
  invalidInput: 40000,
  notLoggedIn: 40001,
  forbidden: 40003,
  /**
   * HTTP 403: the account is suspended (SPEC.md §3 valid); it may sign in and read, not charge, pay, redeem or upload.
   */
  suspended: 40030,
  notFound: 40004,
  methodNotAllowed: 40005,
  conflict: 40009,
  payloadTooLarge: 40013,
  unsupportedMediaType: 40015,
  rateLimited: 40029,
  internal: 50000,
  unavailable: 50003,
  /**
   * HTTP 503: no engine serves this feature on this server (FEATURE_MESSAGES.unavailable); not transient, do not retry.
   */
  featureUnavailable: 50301,
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Plain messages for failures that have no field to name. */
export const ERROR_MESSAGES = {
  notFound: 'Not found: no route answers this method and path',
  invalidJson: 'Request body is not valid JSON',
  unsupportedMediaType: 'Send the body as application/x-www-form-urlencoded, multipart/form-data or application/json',
  payloadTooLarge: 'Request body is too large',
  /** The client closed the connection before it had sent the body its headers announced. */
  bodyCutOff: 'Request body ended early: the connection closed before the whole body arrived',
  internal: 'Something went wrong on our side; please try again',
  suspended: 'This account is suspended; contact support to restore it',
} as const;
