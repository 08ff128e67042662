// Table types of accounts and sign-in: users, sessions, login codes and guesses, API keys.
import type { Generated, Selectable } from 'kysely';
import type { EpochMs, Flag } from './common.ts';

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
  /** When the information modal was first offered to this account (migration 012); null until then. */
  info_asked_at: EpochMs | null;
}
export type User = Selectable<UsersTable>;

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
  /** Its own id (migration 011); the dashboard revokes a key by it. */
  id: string;
  user_id: string;
  /** What the user called it; the default key is "Default key". */
  name: string;
  /** What requests are matched on. */
  key_hash: string;
  /**
   * The default key encrypted, because the dashboard and /apply/playground show it again; null for named keys (shown
   * once).
   */
  key_ciphertext: string | null;
  /**
   * A named key's first and last characters, how the list tells keys apart; null for the default key (read from its
   * ciphertext).
   */
  key_hint: string | null;
  /** 1 for the key SPEC.md §7 /apply/playground returns: one per user. */
  is_default: Flag;
  created_at: EpochMs;
  /**
   * The latest public API call made with it, to the minute (REQUEST_LOG.lastUsedResolutionMs); null when never used.
   */
  last_used_at: EpochMs | null;
  /** Credit caps of the key per UTC day and month (migration 017, server/tasks/key-caps.ts); null: no cap. */
  daily_credit_cap: number | null;
  monthly_credit_cap: number | null;
}
export type ApiKey = Selectable<ApiKeysTable>;

/** A revoked or regenerated key's hash (migration 018): a call with it is told so, instead of "wrong key". */
export interface RetiredApiKeysTable {
  key_hash: string;
  user_id: string;
  /** revoked | regenerated */
  reason: string;
  retired_at: EpochMs;
}
