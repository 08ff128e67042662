// The shapes of account and task answers on the wire, defined once for the server that sends them and the site that reads them.
import type { NoModelPrice } from '../spec';

import type { Feature, MediaKind, RunOption, TaskStatus } from '../spec';

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
  /** What users are shown about the engine, e.g. "preview engine (no AI model)" (src/lib/spec/engines.ts). */
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

/** GET /api-playground/task/v1/features (public): whether this server can run a feature, with which engine, and at what price. */
export interface FeatureState {
  feature: Feature;
  available: boolean;
  /** The engine a run goes to first, and what people are told it is (ENGINE_LABELS); null when none serves the feature. */
  engine: string | null;
  engineLabel: string | null;
  /** Whether a run may use an AI model (some engine of the feature's chain does); false for the offline engines alone. */
  usesModel: boolean;
  /** NO_MODEL_PRICE of this server: runs with no AI model are free or charged the full price. */
  noModelPrice: NoModelPrice;
  /** For people, e.g. "Preview engine (no AI model): free", "fal.ai: 1 credit per 250 characters", "Not available on this server". */
  priceNote: string;
  /** Advanced settings the serving engine honours (src/lib/spec/run-options.ts); absent from servers that predate them. */
  options?: RunOption[];
}

/** GET /api-playground/vih_model/v1/model_list: one sample avatar model (SPEC.md §3). */
export interface SampleModel {
  id: string;
  name: string;
  desc: string;
  src: string;
}
