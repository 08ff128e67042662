// The shapes of account and task answers on the wire, defined once for the server that sends them and the site that
// reads them.
import type { MediaKind, TaskStatus } from '../product-rules';

/** SPEC.md §3 "User info" plus token, isOld and countryCode. */
export interface UserInfo {
  userId: string;
  userEmail: string;
  userName: string;
  userPoints: number;
  company: string;
  channel: string;
  /** SPEC.md §3 "valid (suspension flag)": 1 when suspended, so the client shows the §4 suspension modal. */
  valid: 0 | 1;
  token: string;
  /** True when the user had signed in before the current session. */
  isOld: boolean;
  countryCode: string;
  /** True once the information modal was offered to this account (SPEC.md §4 "once per user", kept on the server). */
  infoAsked: boolean;
}

export interface LoginResult {
  userId: string;
  token: string;
}

/** One credits ledger row as the Billing tab shows it. */
export interface LedgerEntry {
  id: number;
  delta: number;
  /** The running balance right after this change. */
  balanceAfter: number;
  reason: string;
  reference: string | null;
  createdAt: number;
  /**
   * The task a task-hold, -settle or -refund row is about; null for other rows and for tasks deleted from the history.
   */
  task?: LedgerTask | null;
}

export interface LedgerPage {
  list: LedgerEntry[];
  total: number;
  page: number;
  pageSize: number;
}

/** POST /user/credits/history answers a page plus the current balance. */
export interface LedgerPageWithBalance extends LedgerPage {
  balance: number;
}

/** One result file of a task, behind a signed, expiring URL. */
export interface TaskOutputView {
  kind: string;
  url: string;
  mime: string;
  durationS: number | null;
  size: number;
  /**
   * A video's poster frame (a JPEG taken from it when it was stored); absent for other kinds and when none could be
   * made.
   */
  posterUrl?: string | null;
}

/** The playground's task object (submit, poll and get_list answers). */
export interface TaskView {
  taskId: string;
  feature: string;
  status: TaskStatus;
  progress: number;
  /** Credits this task costs: the settled charge once finished, the held estimate before. */
  credits: number;
  creditsHeld: number;
  creditsCharged: number | null;
  priceItem: string;
  engine: string;
  /** What users are shown about the engine, e.g. "preview engine (no AI model)" (src/lib/product-rules/engines.ts). */
  engineLabel: string;
  error: string | null;
  input: unknown;
  /** Empty once the results expired (see outputsExpired). */
  outputs: TaskOutputView[];
  /** True once retention removed the results; status, credits and input stay as they were. */
  outputsExpired: boolean;
  /** When the results expired (epoch ms); null while they are kept. */
  outputsExpiredAt: number | null;
  cloneId: string | null;
  /** Transcript of a speech-to-text task. */
  text: string | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  /** Milliseconds from start to finish; null until finished. */
  executionTime: number | null;
}

/** An uploaded or produced file as the upload calls answer it: its signed URL works until expiresAt. */
export interface MediaInfo {
  id: string;
  kind: MediaKind;
  mime: string;
  size: number;
  durationS: number | null;
  url: string;
  expiresAt: number;
}

/**
 * GET /api-playground/task/v1/features (public): each feature, payments and sign-in methods; one zod schema each
 * (src/lib/api-contract/offer.ts).
 */
export type { FeatureState, OfferAnswer, PaymentsOffer, SignInOffer } from '../api-contract/offer';

/** GET /api-playground/vih_model/v1/model_list: one sample avatar model (SPEC.md §3). */
export interface SampleModel {
  id: string;
  name: string;
  desc: string;
  src: string;
}

/**
 * One API key as the dashboard lists it; the secret itself is only in the answer that creates it (and, for the default
 * key, /apply/playground).
 */
export interface ApiKeyView {
  id: string;
  name: string;
  /** First and last characters, e.g. "sk-AbCd…wxYz". */
  hint: string;
  /** The key /apply/playground returns (SPEC.md §7); regenerated, never revoked. */
  isDefault: boolean;
  createdAt: number;
  /** The latest public API call made with it, to the minute; null when never used. */
  lastUsedAt: number | null;
}

/** One public API call in the dashboard's request log. */
export interface ApiRequestEntry {
  id: number;
  /** The path under /api, e.g. "async/do_tts_common". */
  tool: string;
  /** HTTP status of the answer. */
  status: number;
  /** Envelope code: 0 on success. */
  code: number;
  credits: number;
  taskId: string | null;
  /** The key's name, or null once the key was revoked. */
  keyName: string | null;
  createdAt: number;
}

export interface ApiRequestPage {
  list: ApiRequestEntry[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * Runs and credits per day and per feature (the dashboard chart); `days` are the client's local dates, oldest first.
 */
export interface UsageReport {
  days: string[];
  /**
   * One entry per feature used in the span, most credits (then runs) first; `credits[i]` and `runs[i]` belong to
   * `days[i]`.
   */
  features: Array<{ feature: string; credits: number[]; runs: number[]; total: number; totalRuns: number }>;
  /** Credits used in the span. */
  total: number;
  /** Tasks submitted in the span, free runs included. */
  totalRuns: number;
}

/** The task a billing row is about, when it still exists. */
export interface LedgerTask {
  feature: string;
  status: TaskStatus;
  creditsHeld: number;
  creditsCharged: number | null;
}

/** A live public link to one result. */
export interface ShareLinkView {
  id: string;
  taskId: string;
  /** The public page's address, token included. */
  url: string;
  createdAt: number;
  expiresAt: number;
}

/** What the public page of a shared result shows: no account data beyond the result and what it was made from. */
export interface SharedResult {
  feature: string;
  engineLabel: string;
  /** The prompt, text or script the result was made from; null when it had none. */
  summary: string | null;
  createdAt: number;
  /** When the link stops working. */
  expiresAt: number;
  outputs: TaskOutputView[];
}
