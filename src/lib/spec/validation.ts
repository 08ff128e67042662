// The validation rules of SPEC.md §5 as pure functions, shared by the forms, the tracking worker and the server.

import { CHANNEL, COMPANY, LOGIN, USER_ID_MASK_MIN_LENGTH, USER_ID_MASK_VISIBLE_CHARS } from './constants';

// ---- Account forms (SPEC.md §5) ----

/** §5: a local part of word characters, dots or hyphens, an @, and a dotted domain. */
const EMAIL_PATTERN = /^[\w.-]+@[\w-]+(\.[\w-]+)+$/;

/** True for an email of the §5 shape. The value is checked as given; callers trim what a person typed. */
export function isValidEmail(value: unknown): value is string {
  return typeof value === 'string' && EMAIL_PATTERN.test(value);
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

// ---- Tracking input (SPEC.md §5; invalid events are dropped with a console warning) ----

/** §5: the tracking appKey is a non-empty string. */
export function isValidAppKey(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** Number of underscore-separated segments when every segment is non-empty, else 0. */
function segmentCount(value: string): number {
  const segments = value.split('_');
  return segments.every((segment) => segment.length > 0) ? segments.length : 0;
}

/** §5: a prefix is empty (or not set) or has exactly 3 underscore-separated segments. */
export function isValidEventPrefix(prefix: unknown): boolean {
  if (prefix === undefined || prefix === '') return true;
  return typeof prefix === 'string' && segmentCount(prefix) === 3;
}

/**
 * §5: an event id (oid) is a non-empty string of 3 or 5 underscore-separated non-empty segments, or of
 * 2 segments when a prefix is set (the prefix supplies the other 3).
 */
export function isValidEventId(id: unknown, prefix?: string): id is string {
  if (typeof id !== 'string' || id.length === 0) return false;
  const count = segmentCount(id);
  if (prefix) return count === 2;
  return count === 3 || count === 5;
}

/**
 * §5: the ten tracking actions in the order §5 lists them, each with the numeric code a log entry
 * carries (§3 "action (numeric code)"). SPEC.md does not show the codes; we number them 1 to 10 in
 * the §5 order, and the collector uses the same table.
 */
export const TRACKING_ACTIONS = {
  click: 1,
  slide: 2,
  show: 3,
  hover: 4,
  stay: 5,
  dis: 6,
  pull: 7,
  dclick: 8,
  start: 9,
  press: 10,
} as const;

export type TrackingAction = keyof typeof TRACKING_ACTIONS;
export type TrackingActionCode = (typeof TRACKING_ACTIONS)[TrackingAction];

/** The action names in §5 order. */
export const TRACKING_ACTION_NAMES = Object.keys(TRACKING_ACTIONS) as readonly TrackingAction[];

/** §5: true when the value is one of the ten action names (inherited names such as 'toString' are not). */
export function isValidAction(value: unknown): value is TrackingAction {
  return typeof value === 'string' && Object.hasOwn(TRACKING_ACTIONS, value);
}

/** The numeric code of an action name, or undefined for an unknown action. */
export function actionCode(name: string): TrackingActionCode | undefined {
  return isValidAction(name) ? TRACKING_ACTIONS[name] : undefined;
}

/** §5: domain must be a string if present. */
export function isValidDomain(value: unknown): value is string | undefined {
  return value === undefined || typeof value === 'string';
}

/** §5: logmap must be an object: a plain key/value object, not null, not an array, not a Date or Map. */
export function isValidLogmap(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

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
