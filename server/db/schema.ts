// Kysely table types for the tables the migrations in ./migrations create, one module per area under ./schema; keep in
// step with them.
import type { EpochMs } from './schema/common.ts';
import type {
  ApiKeysTable,
  LoginCodesTable,
  LoginGuessesTable,
  RetiredApiKeysTable,
  SessionsTable,
  UsersTable,
} from './schema/accounts.ts';
import type {
  CreditLedgerTable,
  InvitationRedemptionsTable,
  InvitationsTable,
  PaymentsTable,
  StripeEventsTable,
} from './schema/billing.ts';
import type { ContactMessagesTable } from './schema/contact.ts';
import type { AuditLogTable } from './schema/audit.ts';
import type { TaskCostsTable, TaskProviderCostsTable } from './schema/costs.ts';
import type { ApiRequestsTable, ShareLinksTable } from './schema/history.ts';
import type { WebhookAttemptsTable } from './schema/developer-tools.ts';
import type {
  EngineSlotsTable,
  MediaTable,
  ProviderJobsTable,
  TasksTable,
  UploadPoliciesTable,
  WebhookDeliveriesTable,
  WebhookSecretsTable,
} from './schema/tasks.ts';
import type {
  TrackingAppKeysTable,
  TrackingEventsTable,
  TrackingMessagesTable,
  TrackingMonitorTable,
} from './schema/tracking.ts';

export type * from './schema/accounts.ts';
export type * from './schema/billing.ts';
export type * from './schema/contact.ts';
export type * from './schema/audit.ts';
export type * from './schema/costs.ts';
export type * from './schema/history.ts';
export type * from './schema/developer-tools.ts';
export type * from './schema/tasks.ts';
export type * from './schema/tracking.ts';

/** Owned by migrate.ts: one row per applied migration; the highest version is the schema version. */
export interface SchemaVersionTable {
  version: number;
  name: string;
  applied_at: EpochMs;
}

export interface Schema {
  users: UsersTable;
  sessions: SessionsTable;
  login_codes: LoginCodesTable;
  login_guesses: LoginGuessesTable;
  api_keys: ApiKeysTable;
  retired_api_keys: RetiredApiKeysTable;
  api_requests: ApiRequestsTable;
  share_links: ShareLinksTable;
  credit_ledger: CreditLedgerTable;
  invitations: InvitationsTable;
  invitation_redemptions: InvitationRedemptionsTable;
  schema_version: SchemaVersionTable;
  tasks: TasksTable;
  media: MediaTable;
  upload_policies: UploadPoliciesTable;
  webhook_secrets: WebhookSecretsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  provider_jobs: ProviderJobsTable;
  engine_slots: EngineSlotsTable;
  tracking_app_keys: TrackingAppKeysTable;
  tracking_events: TrackingEventsTable;
  tracking_messages: TrackingMessagesTable;
  tracking_monitor: TrackingMonitorTable;
  payments: PaymentsTable;
  stripe_events: StripeEventsTable;
  contact_messages: ContactMessagesTable;
  audit_log: AuditLogTable;
  task_costs: TaskCostsTable;
  task_provider_costs: TaskProviderCostsTable;
}
