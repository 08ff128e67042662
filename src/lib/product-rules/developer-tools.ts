// Developer tools: credit caps per API key, the webhook delivery log and the usage export (limits, codes, messages).

const DAY_MS = 24 * 60 * 60 * 1000;

/** Envelope codes of the developer tools, beside ERROR_CODES and TASK_ERROR_CODES. */
export const DEVELOPER_TOOL_CODES = {
  /**
   * HTTP 429 with Retry-After: the task's hold would pass the key's daily or monthly credit cap; no task is created.
   */
  keyCapReached: 40021,
} as const;

export type CapPeriod = 'daily' | 'monthly';

export const KEY_CAPS = {
  /** The largest cap a key may carry; a key without a cap is limited by the balance only. */
  maxCredits: 100_000_000,
  /** Periods are calendar days and months in UTC, so every instance and every reader agrees on when they reset. */
  periods: ['daily', 'monthly'] as const satisfies readonly CapPeriod[],
} as const;

/** Start of the UTC day or month holding `now`, and the start of the next one (when the cap resets). */
export function capPeriod(period: CapPeriod, now: number): { start: number; resetsAt: number } {
  const d = new Date(now);
  if (period === 'daily') {
    const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    return { start, resetsAt: start + DAY_MS };
  }
  return {
    start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1),
    resetsAt: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1),
  };
}

const periodWords: Record<CapPeriod, { cap: string; used: string; reset: string }> = {
  daily: { cap: 'daily', used: 'today', reset: 'at 00:00 UTC' },
  monthly: { cap: 'monthly', used: 'this month', reset: 'on the 1st at 00:00 UTC' },
};

export const KEY_CAP_MESSAGES = {
  /** The refusal of a submit: names the cap, what is used, what the task needs and when the cap resets. */
  reached: (o: { period: CapPeriod; cap: number; used: number; needs: number; resetsAt: number }) =>
    `This key's ${periodWords[o.period].cap} credit cap of ${o.cap} would be passed: ${o.used} used ${periodWords[o.period].used}, this task needs ${o.needs}. ` +
    `The cap resets ${periodWords[o.period].reset} (${new Date(o.resetsAt).toISOString()}); raise it in the dashboard's API keys tab.`,
  /**
   * A key may tighten its own caps through the API, never loosen them: a leaked key could otherwise lift its own limit.
   */
  ownRaise:
    'A key cannot raise or remove its own credit caps; change them in the dashboard or with another of your keys',
  keyNotFound: 'No API key with this id',
  capsSaved: 'Credit caps saved',
} as const;

export const WEBHOOK_LOG = {
  /** Bytes of a receiver's answer kept with each attempt. */
  responseHeadBytes: 512,
  /** Characters of a network error kept with an attempt. */
  errorMaxChars: 300,
  defaultPageSize: 20,
  maxPageSize: 100,
} as const;

export const WEBHOOK_LOG_MESSAGES = {
  deliveryNotFound: 'No webhook delivery with this id',
  redelivered: 'Redelivered',
  redeliverFailed: 'Redelivery failed',
  empty: 'No webhook deliveries yet. Pass a callbackUrl when you submit a task to get one.',
  emptyFailed: 'No failed webhook deliveries.',
} as const;

export const USAGE_EXPORT = {
  /** Rows read from the database per query: the export pages through the range, never holding it whole. */
  pageRows: 500,
  /** The longest range one export covers, in days (a year and a bit). */
  maxRangeDays: 400,
  /**
   * A cell starting with one of these is a formula to a spreadsheet: it is written with a leading quote (OWASP CSV
   * injection).
   */
  formulaStarts: ['=', '+', '-', '@', '\t', '\r'],
  /** Columns of the CSV, in order; the JSON rows carry the same fields. */
  columns: [
    'kind',
    'id',
    'time',
    'feature',
    'engine',
    'status',
    'source',
    'credits_held',
    'credits_charged',
    'credits_refunded',
    'delta',
    'balance_after',
    'reason',
    'reference',
    'request_id',
    'key_name',
  ],
} as const;

export const USAGE_EXPORT_MESSAGES = {
  rangeOrder: 'from must not be after to',
  rangeTooLong: `A range covers at most ${USAGE_EXPORT.maxRangeDays} days; export a long period in parts`,
  fileName: (from: string, to: string) => `usage-${from}-to-${to}.csv`,
} as const;
