// Table type of the contact form's messages.
import type { Generated } from 'kysely';
import type { EpochMs } from './common.ts';

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
