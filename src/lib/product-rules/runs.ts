// Several runs at once on a playground screen: what each run card and the runs header say (the limit is
// TASK_LIMITS.perUserConcurrent).

export const RUN_MESSAGES = {
  /** The runs header: how many are queued or running against the per-user limit. */
  inProgress: (active: number, limit: number) => `${active} of ${limit} runs in progress`,
  /** Why the submit waits: the account already has as many runs as it may have at once. */
  atLimit: (limit: number) =>
    `${limit} runs are in progress, the most one account may have at once. Submit again when one finishes.`,
  /** Before the first progress report there is nothing to estimate from. */
  estimating: 'estimating the time left…',
  remaining: (seconds: number) =>
    seconds < 60 ? `about ${Math.max(1, Math.round(seconds))} s left` : `about ${Math.round(seconds / 60)} min left`,
  elapsed: (seconds: number) =>
    seconds < 60 ? `${Math.floor(seconds)} s` : `${Math.floor(seconds / 60)} min ${Math.floor(seconds % 60)} s`,
} as const;

/**
 * How the playground follows an unfinished run when the status stream cannot be had: a poll once a second (the local
 * engines finish speech in about one, and the server answers polls cheaply), given up after this many failures in a
 * row (the network is down) rather than spinning forever.
 */
export const RUN_FOLLOW = {
  pollMs: 1000,
  maxPollFailures: 5,
  /** What the card says of a run whose state could no longer be read (polls kept failing); it goes on on the server. */
  lost: (why: string) => `${why}. The task keeps running; find it in the history below.`,
} as const;
