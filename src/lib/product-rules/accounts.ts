// Account limits, storage keys and messages our server and islands add where SPEC.md leaves them "not shown".

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * Email codes (SPEC.md §4, §7 POST /user/code; the limits are ours: §9 only fixes the 4 digits). Sends are
 * counted per email *and requesting IP*, so a stranger asking for codes cannot stop the owner receiving them;
 * docs/security.md "Sign-in limits" explains each number.
 */
export const LOGIN_CODES = {
  /** A code (and the sign-in link mailed with it) is accepted for 10 minutes after it is sent. */
  ttlMs: 10 * MINUTE_MS,
  /** One code per email per requesting IP per minute; the login modal counts the same interval down before "Resend". */
  resendIntervalMs: 60 * SECOND_MS,
  resendIntervalS: 60,
  /** Codes sent to one email on behalf of one IP within an hour. */
  perEmailPerIpPerHour: 5,
  /** Codes sent to one email within an hour from all IPs together: bounds the mail an address can be sent. */
  perEmailPerHour: 20,
  /** Codes requested from one IP address within an hour. */
  perIpPerHour: 30,
  windowMs: HOUR_MS,
  /**
   * Random bytes of the attempt id POST /user/code answers and of the one-time sign-in link (base64url: 43 characters).
   */
  secretBytes: 32,
  secretPattern: /^[A-Za-z0-9_-]{43}$/,
} as const;

/**
 * Wrong codes allowed over a sliding day, across all codes (docs/security.md "Sign-in limits"): with 10^4
 * codes and 3 wrong guesses per email per 24 h, 30 days allow at most 90 wrong guesses and one more try, so
 * the chance to guess one address's code in 30 days is at most 91 / 10^4 ≈ 0.91 %. The mailed link signs in
 * regardless, so a stranger who spends an address's budget does not lock its owner out.
 */
export const LOGIN_GUESSES = {
  perEmailPerDay: 3,
  /** Per IP across emails; below 5 emails × 3 so one address cannot probe many mailboxes at full rate. */
  perIpPerDay: 10,
  windowMs: DAY_MS,
} as const;

/** The one-time sign-in link in every code mail: `<site>/?signin=<token>`, handled by the root page (SPEC.md §4). */
export const LOGIN_LINK = {
  queryParam: 'signin',
} as const;

/** Sessions (SPEC.md §3 token; lifetime matches the 30-day user id cookie of §9). */
export const SESSIONS = {
  ttlMs: 30 * DAY_MS,
} as const;

/** API keys (SPEC.md §7 POST /apply/playground). */
export const API_KEYS = {
  prefix: 'sk-',
  /** Shown before "…" when the key is masked on the dashboard. */
  visibleChars: 7,
  /** The characters left at the end of a key masked in a code sample (its start shows the prefix). */
  sampleVisibleEnd: 4,
} as const;

/** Billing history pages (our POST /user/credits/history). */
export const CREDIT_HISTORY = {
  defaultPageSize: 20,
  maxPageSize: 100,
} as const;

/** Length limits on free-text attribution fields (SPEC.md §7 referer, refererUrl). */
export const ATTRIBUTION = {
  maxLength: 2048,
} as const;

/** Identity providers of SPEC.md §2; the value is what is stored as loginType. */
export const OAUTH_PROVIDERS = ['google', 'github'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/**
 * Browser-only keys for the OAuth round trip, beside the SPEC.md §3 keys. The random part of the state and
 * the PKCE verifier live in sessionStorage: they belong to the tab that started the sign-in.
 */
export const OAUTH_SESSION_KEYS = {
  state: 'oauthState',
  verifier: 'oauthVerifier',
} as const;

/** Why a request was refused, as shown to people (server answers; SPEC.md §8 "reject with the server's message"). */
export const ACCOUNT_MESSAGES = {
  resendTooSoon: 'Please wait before requesting another code',
  emailHourlyCap: 'Too many codes sent to this email in the last hour; please try again later',
  ipHourlyCap: 'Too many codes requested from your network in the last hour; please try again later',
  emailIpHourlyCap:
    'Too many codes requested for this email from your network in the last hour; please try again later',
  codeInvalid: 'The code is wrong; please check the email and try again',
  codeExpired: 'The code has expired; please request a new code',
  codeUsed: 'This code was already used; please request a new code to sign in again',
  attemptUnknown: 'This sign-in attempt is unknown; please request a new code',
  emailGuessCap: 'Too many wrong codes for this email today; please sign in with the link in the email',
  ipGuessCap: 'Too many wrong codes from your network today; please sign in with the link in the email',
  linkInvalid: 'This sign-in link is not valid; please request a new code',
  linkExpired: 'This sign-in link has expired; please request a new code',
  linkUsed: 'This sign-in link was already used; please request a new code to sign in again',
  sessionExpired: 'User Not Login',
  userIdMismatch: 'userId does not match the signed-in user',
  invitationUnknown: 'This invitation code does not exist',
  invitationExpired: 'This invitation code has expired',
  invitationUsedUp: 'This invitation code has been fully used',
  invitationAlreadyRedeemed: 'You have already redeemed this invitation code',
  oauthNotConfigured: 'Sign-in with this provider is not configured on this server',
  oauthState: 'The sign-in state is missing or does not match; please start the sign-in again',
  oauthFailed: 'The identity provider refused the sign-in; please try again',
  oauthNoEmail: 'The identity provider did not share a verified email address',
  insufficientCredits: 'Not enough credits',
  invalidApiKey: 'The API key is missing, wrong or was regenerated',
  /** A call with a key its owner revoked (dates are UTC, YYYY-MM-DD). */
  revokedApiKey: (on: string) => `This API key was revoked on ${on}; use another key, or create one in the dashboard`,
  /** A call with the default key as it was before its owner regenerated it. */
  regeneratedApiKey: (on: string) => `This API key was regenerated on ${on}; use the new key shown in the dashboard`,
} as const;

/**
 * OAuth state: SPEC.md §2 sends state "dreamapi"; we keep it as the prefix and add a random part after a dot,
 * which the browser compares with the one it stored, so a forged callback cannot sign anyone in (login CSRF).
 */
export const OAUTH_STATE = {
  separator: '.',
  randomBytes: 24,
  pattern: /^dreamapi\.[A-Za-z0-9_-]{16,128}$/,
  /** RFC 7636: a verifier is 43–128 characters of [A-Za-z0-9-._~]; an S256 challenge is 43 base64url characters. */
  verifierPattern: /^[A-Za-z0-9._~-]{43,128}$/,
  challengePattern: /^[A-Za-z0-9_-]{43}$/,
} as const;
