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
  ip: string | null;
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
  api_keys: ApiKeysTable;
  credit_ledger: CreditLedgerTable;
  invitations: InvitationsTable;
  invitation_redemptions: InvitationRedemptionsTable;
  schema_version: SchemaVersionTable;
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
