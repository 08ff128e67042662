// Request bodies of the dashboard and history calls (named keys, request log, usage, share links), with "field: rule"
// messages.
import { z } from 'zod';
import {
  isSafeText,
  NAMED_API_KEYS,
  REQUEST_LOG,
  SHARE_LINKS,
  UNSAFE_TEXT_MESSAGE,
  USAGE,
} from '../../src/lib/product-rules';

const str = () => z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') });
const id = () => str().trim().min(1, 'is required').max(64, 'is too long');
const whole = () => z.coerce.number({ error: 'must be a number' }).int('must be a whole number');

export const createKeyBody = z.object({
  name: str()
    .trim()
    .min(1, 'is required')
    .max(NAMED_API_KEYS.nameMaxLength, `must be at most ${NAMED_API_KEYS.nameMaxLength} characters`)
    .refine((v) => isSafeText(v), UNSAFE_TEXT_MESSAGE),
});

export const keyIdBody = z.object({ keyId: id() });

export const requestsBody = z.object({
  page: whole().min(1, 'must be 1 or more').default(1),
  pageSize: whole()
    .min(1, 'must be 1 or more')
    .max(REQUEST_LOG.maxPageSize, `must be at most ${REQUEST_LOG.maxPageSize}`)
    .default(REQUEST_LOG.defaultPageSize),
});

export const usageBody = z.object({
  /** Minutes as Date#getTimezoneOffset gives them, so days start at the user's midnight. */
  tzOffset: whole()
    .min(-USAGE.maxTzOffsetMinutes, `must be between -${USAGE.maxTzOffsetMinutes} and ${USAGE.maxTzOffsetMinutes}`)
    .max(USAGE.maxTzOffsetMinutes, `must be between -${USAGE.maxTzOffsetMinutes} and ${USAGE.maxTzOffsetMinutes}`)
    .default(0),
});

export const createShareBody = z.object({
  taskId: id(),
  days: whole()
    .refine(
      (v) => (SHARE_LINKS.ttlDays as readonly number[]).includes(v),
      `must be one of ${SHARE_LINKS.ttlDays.join(', ')}`,
    )
    .default(SHARE_LINKS.defaultTtlDays),
});

export const shareTaskBody = z.object({ taskId: id() });
export const shareIdBody = z.object({ shareId: id() });
