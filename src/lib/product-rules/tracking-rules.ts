// The tracking input rules of SPEC.md §5 and the action codes of §3, as pure functions shared by the page's tracking
// stub, the worker and the collector (re-exported by validation.ts). A module of their own so the stub bundles only
// these.
import type { TrackingWarningKey } from './tracking-warnings';

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
export const TRACKING_ACTION_NAMES = /* @__PURE__ */ Object.keys(TRACKING_ACTIONS) as readonly TrackingAction[];

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

/** A tracker's init options, as far as §5 rules them. */
interface TrackingInitOptions {
  appKey?: unknown;
  domain?: unknown;
  logPrefix?: unknown;
  baseLogmap?: unknown;
}

/**
 * §5: the first rule a tracker's init options break, named by its warning (TRACKING_WARNINGS), or undefined when they
 * keep them all. The page's stub warns with it; the worker checks the same before it locks the config.
 */
export function initOptionsFault(options: TrackingInitOptions | undefined): TrackingWarningKey | undefined {
  if (!options || !isValidAppKey(options.appKey)) return 'appKey';
  if (!isValidDomain(options.domain)) return 'domain';
  if (!isValidEventPrefix(options.logPrefix)) return 'eventPrefix';
  if (options.baseLogmap !== undefined && !isValidLogmap(options.baseLogmap)) return 'logmap';
  return undefined;
}
