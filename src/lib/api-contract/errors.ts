// The public API's error catalogue: every envelope code with its HTTP status and when it is answered.
import { DEVELOPER_TOOL_CODES, ERROR_CODES, PUBLIC_API_CODES, TASK_ERROR_CODES } from '../product-rules';

export interface ErrorEntry {
  code: number;
  http: number;
  title: string;
  when: string;
}

/** One row per kind of failure; operations list the keys they can answer with. */
export const ERROR_CATALOGUE = {
  illegalParameter: {
    code: PUBLIC_API_CODES.illegalParameter,
    http: 400,
    title: 'Illegal parameter',
    when: 'A field is missing or breaks a rule; the message names it, e.g. "Illegal parameter: text: must not be empty".',
  },
  invalidInput: {
    code: ERROR_CODES.invalidInput,
    http: 400,
    title: 'Invalid input',
    when: 'The body is not valid JSON, or the file a per-second tool is charged on could not be downloaded or measured.',
  },
  notLoggedIn: {
    code: ERROR_CODES.notLoggedIn,
    http: 401,
    title: 'Not authenticated',
    when: 'The Authorization header is missing or the API key is wrong.',
  },
  insufficientCredits: {
    code: TASK_ERROR_CODES.insufficientCredits,
    http: 402,
    title: 'Not enough credits',
    when: "The balance does not cover the task's estimate; no task is created.",
  },
  keyCapReached: {
    code: DEVELOPER_TOOL_CODES.keyCapReached,
    http: 429,
    title: 'Key credit cap reached',
    when:
      "The task's hold would pass the daily or monthly credit cap of the key (keys/set_caps); the message " +
      'names the cap and when it resets (UTC), Retry-After the seconds until then. No task is created.',
  },
  forbidden: {
    code: ERROR_CODES.forbidden,
    http: 403,
    title: 'Forbidden',
    when: 'An upload policy is unknown, expired or forged, or a media link of this server belongs to another account.',
  },
  suspended: {
    code: ERROR_CODES.suspended,
    http: 403,
    title: 'Account suspended',
    when: 'The account is suspended: submits, uploads, invitation codes and payments are refused; results, cancel and the balance still answer.',
  },
  notFound: {
    code: ERROR_CODES.notFound,
    http: 404,
    title: 'Not found',
    when: 'No task (or upload policy) with this id for this key, or no such route.',
  },
  conflict: {
    code: TASK_ERROR_CODES.conflict,
    http: 409,
    title: 'Conflict',
    when: 'The same Idempotency-Key with another body, a task that can no longer be canceled, or an upload not finished yet.',
  },
  payloadTooLarge: {
    code: ERROR_CODES.payloadTooLarge,
    http: 413,
    title: 'Too large',
    when: 'The body or upload is over its cap, or the media is longer than allowed.',
  },
  unsupportedMediaType: {
    code: ERROR_CODES.unsupportedMediaType,
    http: 415,
    title: 'Unsupported media type',
    when: 'The body encoding is not JSON, form or multipart, or an upload is not an accepted media type (checked by content).',
  },
  rateLimited: {
    code: ERROR_CODES.rateLimited,
    http: 429,
    title: 'Too many requests',
    when: 'Over the per-key rate limit, or too many tasks in progress; wait for Retry-After seconds.',
  },
  internal: {
    code: ERROR_CODES.internal,
    http: 500,
    title: 'Internal error',
    when: 'Something failed on our side; retrying later is safe (use an Idempotency-Key for submits).',
  },
  unavailable: {
    code: ERROR_CODES.unavailable,
    http: 503,
    title: 'Unavailable',
    when: 'A service the call depends on is not available right now; retry shortly.',
  },
  featureUnavailable: {
    code: ERROR_CODES.featureUnavailable,
    http: 503,
    title: 'Feature not available',
    when:
      'This server runs no engine for the tool ("This feature is not available on this server"); retrying ' +
      'will not help. GET /api-playground/task/v1/features lists what it serves.',
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorKey = keyof typeof ERROR_CATALOGUE;

/** Rows of the catalogue in code order, for the reference pages. */
export function errorRows(): Array<ErrorEntry & { key: ErrorKey }> {
  return (Object.entries(ERROR_CATALOGUE) as Array<[ErrorKey, ErrorEntry]>)
    .map(([key, e]) => ({ key, ...e }))
    .sort((a, b) => a.code - b.code || a.http - b.http);
}
