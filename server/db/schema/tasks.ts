// Table types of generation tasks: tasks, their media and upload policies, webhook secrets and deliveries.
import type { Generated, Selectable } from 'kysely';
import type { EpochMs } from './common.ts';

/** A generation task: lifecycle, inputs and outputs as JSON text, credits held and charged. */
export interface TasksTable {
  id: string;
  user_id: string;
  feature: string;
  /** queued | running | succeeded | failed | canceled */
  status: string;
  source: string;
  input: string;
  output: string | null;
  progress: Generated<number>;
  error: string | null;
  engine: string;
  price_item: string;
  credits_held: Generated<number>;
  credits_charged: number | null;
  attempts: Generated<number>;
  idempotency_key: string | null;
  request_hash: string | null;
  callback_url: string | null;
  created_at: EpochMs;
  started_at: EpochMs | null;
  finished_at: EpochMs | null;
  updated_at: EpochMs;
  /** When retention removed the task's results (migration 008); null while they are kept. */
  outputs_expired_at: EpochMs | null;
  /** W3C traceparent of the submitting request (migration 009), so the run joins its trace; null with tracing off. */
  trace_context: string | null;
  /**
   * The API key a public API task was submitted with (migration 017), what its credit caps count; null for the
   * playground.
   */
  key_id: string | null;
  /** X-Request-Id of the submitting public API call (migration 017), carried by the usage export. */
  request_id: string | null;
}
export type TaskRow = Selectable<TasksTable>;

/** An uploaded or generated file kept by the media store until expires_at. */
export interface MediaTable {
  id: string;
  user_id: string;
  task_id: string | null;
  kind: string;
  mime: string;
  size: number;
  duration_ms: number | null;
  storage_key: string;
  created_at: EpochMs;
  expires_at: EpochMs;
  /** For kind 'poster': the id of the video this frame was taken from (migration 012); null otherwise. */
  poster_of: string | null;
}
export type MediaRow = Selectable<MediaTable>;

/** Step one of the three-step upload (get_policy); media_id is set once the form upload arrived. */
export interface UploadPoliciesTable {
  req_id: string;
  user_id: string;
  scene: string;
  media_id: string | null;
  created_at: EpochMs;
  expires_at: EpochMs;
}
export type UploadPolicyRow = Selectable<UploadPoliciesTable>;

/** A user's Standard Webhooks signing secret (whsec_…). */
export interface WebhookSecretsTable {
  user_id: string;
  secret: string;
  created_at: EpochMs;
}

/** One webhook message and its delivery state; retried with backoff until delivered or out of attempts. */
export interface WebhookDeliveriesTable {
  id: string;
  task_id: string;
  user_id: string;
  url: string;
  payload: string;
  /** pending | delivered | failed */
  status: string;
  attempts: Generated<number>;
  next_attempt_at: EpochMs;
  last_error: string | null;
  created_at: EpochMs;
  updated_at: EpochMs;
}

/**
 * A job a task started at a provider (migration 013): resumed by a later attempt, canceled when the task ends without
 * it.
 */
export interface ProviderJobsTable {
  task_id: string;
  /** The engine whose cancelJob() understands `ref`. */
  engine: string;
  /** The job's name within that engine's run (e.g. dubbing, lip-sync). */
  name: string;
  /** The provider's reference, JSON text; outside input when read back. */
  ref: string;
  /** The task attempt that owns the job now. */
  attempt: number;
  created_at: EpochMs;
  updated_at: EpochMs;
  /** When it was canceled or its task ended; null while it may still run. */
  ended_at: EpochMs | null;
}

/**
 * A cluster-wide engine slot in use (migration 015, server/tasks/engine-slots.ts): free again when released or expired.
 */
export interface EngineSlotsTable {
  engine: string;
  slot: number;
  holder: string;
  /** Epoch ms by the database's clock. */
  expires_at: EpochMs;
}
