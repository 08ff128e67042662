// Table types of the dashboard and history additions: the public API request log and share links to results.
import type { Generated, Selectable } from 'kysely';
import type { EpochMs } from './common.ts';

/** One public API call that passed the key check (migration 011). */
export interface ApiRequestsTable {
  id: Generated<number>;
  user_id: string;
  key_id: string | null;
  /** The path under /api, e.g. "async/do_tts_common". */
  tool: string;
  /** HTTP status of the answer. */
  status: number;
  /** Envelope code of the answer: 0 on success. */
  code: number;
  credits: Generated<number>;
  task_id: string | null;
  created_at: EpochMs;
}

/** An opt-in public link to one task's results (migration 012); the token is signed, so the row is found by id. */
export interface ShareLinksTable {
  id: string;
  user_id: string;
  task_id: string;
  created_at: EpochMs;
  expires_at: EpochMs;
  revoked_at: EpochMs | null;
}

export type ShareLinkRow = Selectable<ShareLinksTable>;
