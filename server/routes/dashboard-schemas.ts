// Request bodies of the dashboard calls, with "field: rule" messages.
import { z } from 'zod';
import { USAGE } from '../../src/lib/spec';

const whole = () => z.coerce.number({ error: 'must be a number' }).int('must be a whole number');

export const usageBody = z.object({
  /** Minutes as Date#getTimezoneOffset gives them, so days start at the user's midnight. */
  tzOffset: whole()
    .min(-USAGE.maxTzOffsetMinutes, `must be between -${USAGE.maxTzOffsetMinutes} and ${USAGE.maxTzOffsetMinutes}`)
    .max(USAGE.maxTzOffsetMinutes, `must be between -${USAGE.maxTzOffsetMinutes} and ${USAGE.maxTzOffsetMinutes}`)
    .default(0),
});
