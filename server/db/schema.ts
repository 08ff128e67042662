// Kysely table types for the tables the migrations in ./migrations create; keep in step with them.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

// Every timestamp is integer epoch milliseconds (bigint on PostgreSQL, read back as a JS number by the
// int8 type parser set up in connect.ts), so comparisons and arithmetic are the same on both engines.
type EpochMs = number;

// Flags are stored as integer 0/1 rather than boolean: better-sqlite3 cannot bind JS booleans and
// PostgreSQL would hand back true/false, so 0/1 is the only shape that reads the same on both engines.
type Flag = 0 | 1;

export interface UsersTable {
  /** Random public user id (SPEC.md §3 userId). */
  id: string;
  /** Null for accounts created through an identity provider that shared no email (SPEC.md §4 bind-email). */
  email: string | null;
  name: Generated<string>;
  company: string | null;
  /** How the user heard of the product (SPEC.md §3 company form). */
  channel: string | null;
  /** Credit balance; changed only together with a credit_ledger row (DESIGN.md "Nothing is lost"). */
  credits: Generated<number>;
  /** SPEC.md §3 `valid`: 1 when the account is suspended. */
  suspended: Generated<Flag>;
  country_code: string | null;
  referer: string | null;
  referer_url: string | null;
  created_at: EpochMs;
  updated_at: EpochMs;
}

export interface SessionsTable {
  /** Hash of the bearer token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  created_at: EpochMs;
  expires_at: EpochMs;
  revoked_at: EpochMs | null;
}

export interface LoginCodesTable {
  id: Generated<number>;
  email: string;
  code_hash: string;
  created_at: EpochMs;
  expires_at: EpochMs;
  attempts: Generated<number>;
  consumed_at: EpochMs | null;
  /** The requester's address as counted by the per-IP limits (an IPv6 address by its /64). */
  ip: string | null;
  /** SHA-256 of the attempt id POST /user/code answered; a guess names its attempt (migration 007). */
  attempt_hash: string | null;
  /** SHA-256 of the one-time sign-in link's token mailed with the code (migration 007). */
  link_hash: string | null;
}

/** One guess at a login code, kept while it counts against the daily budgets (migration 007, docs/security.md). */
export interface LoginGuessesTable {
  id: Generated<number>;
  email: string;
  ip: string;
  created_at: EpochMs;
}

export interface ApiKeysTable {
  /** One key per user (SPEC.md §7 /apply/playground returns "the API key"). */
  user_id: string;
  /** The key encrypted, because the dashboard shows it again; key_hash is what requests are matched on. */
  key_ciphertext: string;
  key_hash: string;
  created_at: EpochMs;
}

export interface CreditLedgerTable {
  id: Generated<number>;
  user_id: string;
  /** Signed change: negative for spending, positive for grants and refunds. */
  delta: number;
  balance_after: number;
  reason: string;
  /** What the change is about, e.g. a task id or an invitation code. */
  reference: string | null;
  created_at: EpochMs;
}

export interface InvitationsTable {
  code: string;
  /** Credits granted per redemption (SPEC.md §9: 500 by default). */
  credits: number;
  max_uses: number;
  uses: Generated<number>;
  expires_at: EpochMs | null;
  created_at: EpochMs;
}

export interface InvitationRedemptionsTable {
  code: string;
  user_id: string;
  created_at: EpochMs;
}

/** Tracking app keys registered by the CLI (migration 002); keys from configuration are not stored. */
export interface TrackingAppKeysTable {
  app_key: string;
  label: Generated<string>;
  created_at: EpochMs;
  revoked_at: EpochMs | null;
}

/** One stored tracking entry (SPEC.md §3), keyed by the client's unique entry id so duplicates are dropped. */
export interface TrackingEventsTable {
  entry_id: string;
  app_key: string;
  produce_id: string;
  device_id: string;
  cold_start_id: string;
  seq_id: number;
  uid: string;
  time: EpochMs;
  oid: string;
  /** Numeric action code (TRACKING_ACTIONS). */
  action: number;
  foid: string;
  ffid: string;
  /** JSON text of the logmap. */
  logmap: string;
  queue_id: string;
  received_at: EpochMs;
}

/** A client error report (SPEC.md §7 POST /spider/api/v1/report/message). */
export interface TrackingMessagesTable {
  id: Generated<number>;
  app_key: string;
  device_id: string;
  app_version: string;
  platform: string;
  platform_version: string;
  message: string;
  received_at: EpochMs;
}

/** A monitoring sample: a web-vitals metric (kind 'perf') or a tracking failure (kind 'error'). */
export interface TrackingMonitorTable {
  id: Generated<number>;
  app_key: string;
  device_id: string;
  kind: string;
  name: string;
  value: number | null;
  rating: string | null;
  page: string;
  message: string | null;
  received_at: EpochMs;
}

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
}

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
}

/** Step one of the three-step upload (get_policy); media_id is set once the form upload arrived. */
export interface UploadPoliciesTable {
  req_id: string;
  user_id: string;
  scene: string;
  media_id: string | null;
  created_at: EpochMs;
  expires_at: EpochMs;
}

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

/** Owned by migrate.ts: one row per applied migration; the highest version is the schema version. */
export interface SchemaVersionTable {
  version: number;
  name: string;
  applied_at: EpochMs;
}

export interface PaymentsTable {
  id: string;
  user_id: string;
  pack_id: string;
  credits: number;
  amount_minor: number;
  currency: string;
  status: 'pending' | 'paid' | 'refunded' | 'disputed' | 'canceled';
  payment_intent: string | null;
  refunded_minor: Generated<number>;
  credits_clawed_back: Generated<number>;
  created_at: EpochMs;
  updated_at: EpochMs;
}

export interface StripeEventsTable {
  id: string;
  type: string;
  received_at: EpochMs;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  name: string;
  email: string;
  topic: string;
  message: string;
  ip: string | null;
  user_id: string | null;
  mailed_at: EpochMs | null;
  created_at: EpochMs;
}

export interface Schema {
  users: UsersTable;
  sessions: SessionsTable;
  login_codes: LoginCodesTable;
  login_guesses: LoginGuessesTable;
  api_keys: ApiKeysTable;
  credit_ledger: CreditLedgerTable;
  invitations: InvitationsTable;
  invitation_redemptions: InvitationRedemptionsTable;
  schema_version: SchemaVersionTable;
  tasks: TasksTable;
  media: MediaTable;
  upload_policies: UploadPoliciesTable;
  webhook_secrets: WebhookSecretsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  tracking_app_keys: TrackingAppKeysTable;
  tracking_events: TrackingEventsTable;
  tracking_messages: TrackingMessagesTable;
  tracking_monitor: TrackingMonitorTable;
  payments: PaymentsTable;
  stripe_events: StripeEventsTable;
  contact_messages: ContactMessagesTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Session = Selectable<SessionsTable>;
export type NewSession = Insertable<SessionsTable>;
export type LoginCode = Selectable<LoginCodesTable>;
export type NewLoginCode = Insertable<LoginCodesTable>;
export type ApiKey = Selectable<ApiKeysTable>;
export type NewApiKey = Insertable<ApiKeysTable>;
export type CreditLedgerEntry = Selectable<CreditLedgerTable>;
export type NewCreditLedgerEntry = Insertable<CreditLedgerTable>;
export type Invitation = Selectable<InvitationsTable>;
export type NewInvitation = Insertable<InvitationsTable>;
export type InvitationRedemption = Selectable<InvitationRedemptionsTable>;
export type NewInvitationRedemption = Insertable<InvitationRedemptionsTable>;
export type TrackingEvent = Selectable<TrackingEventsTable>;
export type NewTrackingEvent = Insertable<TrackingEventsTable>;
export type TaskRow = Selectable<TasksTable>;
export type MediaRow = Selectable<MediaTable>;
