// The validation rules of SPEC.md §5 as pure functions, shared by the forms, the tracking worker and the server.

import { CHANNEL, COMPANY, LOGIN, USER_ID_MASK_MIN_LENGTH, USER_ID_MASK_VISIBLE_CHARS } from './constants';

// ---- Account forms (SPEC.md §5) ----

/** §5: a local part of word characters, dots or hyphens, an @, and a dotted domain. */
const EMAIL_PATTERN = /^[\w.-]+@[\w-]+(\.[\w-]+)+$/;

/** True for an email of the §5 shape. The value is checked as given; callers trim what a person typed. */
export function isValidEmail(value: unknown): value is string {
  return typeof value === 'string' && EMAIL_PATTERN.test(value);
}

/**
 * The form an address is kept and looked up in: trimmed and lower-cased, as sign-in stores it, so the
 * operator CLI and every lookup find the same user however the address was typed.
 */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** §5: each code digit box takes 1 character, and it must be a digit (§4 "a 4-digit code"). */
export function isValidCodeDigit(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9]$/.test(value);
}

const LOGIN_CODE_PATTERN = new RegExp(`^[0-9]{${LOGIN.codeDigits}}$`);

/** §4, §9: the email login code is exactly 4 digits. */
export function isValidLoginCode(value: unknown): value is string {
  return typeof value === 'string' && LOGIN_CODE_PATTERN.test(value);
}

/** §5: an empty invitation code is refused ('Please enter invitation code'); whitespace alone counts as empty. */
export function isValidInvitationCode(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

/**
 * §5: channel text ("how they heard of the product") is optional and at most CHANNEL.maxLength (500)
 * characters; see CHANNEL in constants.ts for why 500 and not the /1000 the original counter showed.
 */
export function isValidChannel(value: unknown): value is string {
  return typeof value === 'string' && value.length <= CHANNEL.maxLength;
}

/** §3 company form: a company name is required (not blank) and at most COMPANY.maxLength characters. */
export function isValidCompany(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0 && value.length <= COMPANY.maxLength;
}

// ---- Free text typed by people (profile fields, contact form; docs/security.md "Files and answers") ----

/** The answer to a field holding a character isSafeText refuses, after "field: ". */
export const UNSAFE_TEXT_MESSAGE = 'must not contain control or bidirectional-override characters';

/**
 * Control characters (C0, DEL, C1: NUL, escape sequences, line breaks in a one-line field) and the
 * bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) that can make text shown
 * in a dashboard, an email or a log read differently from what it holds.
 */
function isUnsafeCodePoint(cp: number, multiLine: boolean): boolean {
  // A multi-line text (a message body) may hold tabs and line breaks, nothing else of the kind.
  if (multiLine && (cp === 0x09 || cp === 0x0a || cp === 0x0d || cp === 0x2028 || cp === 0x2029)) return false;
  return (
    cp <= 0x1f ||
    (cp >= 0x7f && cp <= 0x9f) ||
    cp === 0x2028 ||
    cp === 0x2029 ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069)
  );
}

/** True when the text holds none of the characters above; `multiLine` lets tabs and line breaks through. */
export function isSafeText(value: string, options: { multiLine?: boolean } = {}): boolean {
  const multiLine = options.multiLine ?? false;
  for (const char of value) {
    if (isUnsafeCodePoint(char.codePointAt(0)!, multiLine)) return false;
  }
  return true;
}

// ---- Tracking input (SPEC.md §5; invalid events are dropped with a console warning) ----
// In tracking-rules.ts, so the page's tracking stub bundles them without the account rules above.

export * from './tracking-rules';

// ---- Device and display (SPEC.md §5, §9) ----

const MOBILE_UA_PATTERN = /Android|iPhone|iPad|iPod|Mobile|Windows Phone|BlackBerry|BB10|Opera Mini|IEMobile|webOS/i;

/** §5: mobile is detected by user-agent keywords. */
export function isMobileUserAgent(userAgent: string | null | undefined): boolean {
  return typeof userAgent === 'string' && MOBILE_UA_PATTERN.test(userAgent);
}

/**
 * §9: a user id of 16 characters or more is shown masked, keeping the first and last 4 characters with
 * '****' between (e.g. 'abcd****wxyz'); shorter ids are shown as they are.
 */
export function maskUserId(id: string): string {
  if (id.length < USER_ID_MASK_MIN_LENGTH) return id;
  return `${id.slice(0, USER_ID_MASK_VISIBLE_CHARS)}****${id.slice(-USER_ID_MASK_VISIBLE_CHARS)}`;
}
