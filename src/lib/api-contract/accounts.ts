// Zod schemas of the account and dashboard calls (SPEC.md §3, §7): user info, sign-in, the credits ledger, API keys,
// the request log and usage. The server sends these answers; src/lib/api/types.ts names their types.
import { z } from 'zod';
import { TASK_STATUSES } from '../product-rules';

/** SPEC.md §3 "User info" plus token, isOld and countryCode. */
export const userInfo = z.object({
  userId: z.string(),
  userEmail: z.string(),
  userName: z.string(),
  userPoints: z.number(),
  company: z.string(),
  channel: z.string(),
  /** SPEC.md §3 "valid (suspension flag)": 1 when suspended, so the client shows the §4 suspension modal. */
  valid: z.union([z.literal(0), z.literal(1)]),
  token: z.string(),
  /** True when the user had signed in before the current sign-in. */
  isOld: z.boolean(),
  countryCode: z.string(),
  /** True once the information modal was offered to this account (SPEC.md §4 "once per user", kept on the server). */
  infoAsked: z.boolean(),
});

/** Where a new account came from, sent with a sign-in (SPEC.md §7 email login and the OAuth callbacks). */
export const attribution = z.object({ referer: z.string(), refererUrl: z.string() });

export const loginResult = z.object({ userId: z.string(), token: z.string() });

/** The task a billing row is about, when it still exists. */
export const ledgerTask = z.object({
  feature: z.string(),
  status: z.enum(TASK_STATUSES),
  creditsHeld: z.number(),
  creditsCharged: z.number().nullable(),
});

/** One credits ledger row as the Billing tab shows it. */
export const ledgerEntry = z.object({
  id: z.number(),
  delta: z.number(),
  /** The running balance right after this change. */
  balanceAfter: z.number(),
  reason: z.string(),
  reference: z.string().nullable(),
  createdAt: z.number(),
  /** The task a task-hold, -settle or -refund row is about; null for other rows and for tasks deleted since. */
  task: ledgerTask.nullable().optional(),
});

const page = { total: z.number(), page: z.number(), pageSize: z.number() };
export const ledgerPage = z.object({ list: z.array(ledgerEntry), ...page });
/** POST /user/credits/history answers a page plus the current balance. */
export const ledgerPageWithBalance = ledgerPage.extend({ balance: z.number() });

/** One API key as the dashboard lists it; the secret itself is only in the answer that creates it. */
export const apiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  /** First and last characters, e.g. "sk-AbCd…wxYz". */
  hint: z.string(),
  /** The key /apply/playground returns (SPEC.md §7); regenerated, never revoked. */
  isDefault: z.boolean(),
  createdAt: z.number(),
  /** The latest public API call made with it, to the minute; null when never used. */
  lastUsedAt: z.number().nullable(),
});
export const apiKeyList = z.object({ list: z.array(apiKeyView) });
/** The answer that creates a key: its view and, this once, the whole secret. */
export const createdApiKey = apiKeyView.extend({ key: z.string() });

/** One public API call in the dashboard's request log. */
export const apiRequestEntry = z.object({
  id: z.number(),
  /** The path under /api, e.g. "async/do_tts_common". */
  tool: z.string(),
  /** HTTP status of the answer. */
  status: z.number(),
  /** Envelope code: 0 on success. */
  code: z.number(),
  credits: z.number(),
  taskId: z.string().nullable(),
  /** The key's name, or null once the key was revoked. */
  keyName: z.string().nullable(),
  createdAt: z.number(),
});
export const apiRequestPage = z.object({ list: z.array(apiRequestEntry), ...page });

/** Runs and credits per day and feature (the dashboard chart); `days` are the client's local dates, oldest first. */
export const usageReport = z.object({
  days: z.array(z.string()),
  /** One entry per feature used, most credits (then runs) first; `credits[i]` and `runs[i]` belong to `days[i]`. */
  features: z.array(
    z.object({
      feature: z.string(),
      credits: z.array(z.number()),
      runs: z.array(z.number()),
      total: z.number(),
      totalRuns: z.number(),
    }),
  ),
  /** Credits used in the span. */
  total: z.number(),
  /** Tasks submitted in the span, free runs included. */
  totalRuns: z.number(),
});

/** Small answers of the account calls (src/lib/api/accounts.ts, payments.ts). */
export const codeSent = z.object({ attemptId: z.string() });
export const playgroundKey = z.object({ key: z.string() });
export const redeemed = z.object({ credits: z.number(), balance: z.number() });
export const oauthUrl = z.object({ url: z.string() });
export const checkoutSession = z.object({ sessionId: z.string(), url: z.string() });
