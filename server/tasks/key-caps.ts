// Credit caps per API key: the check inside the submit transaction (key row locked), the caps with their use, and
// setting them.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Schema } from '../db';
import { AppError } from '../http/errors';
import {
  capPeriod,
  DEVELOPER_TOOL_CODES,
  ERROR_CODES,
  KEY_CAP_MESSAGES,
  type CapPeriod,
} from '../../src/lib/product-rules';
import type { KeyCapView } from '../../src/lib/api-contract';

type Db = Kysely<Schema> | Transaction<Schema>;
export interface KeyCaps {
  dailyCap: number | null;
  monthlyCap: number | null;
}

/**
 * What a key has used since `since`, by the day and month starts: an active task counts its hold, a finished one what
 * it was charged (a failed or canceled task, refunded, counts nothing).
 */
async function usedSince(db: Db, keyId: string, dayStart: number, monthStart: number) {
  const used = sql<number>`case when status in ('queued', 'running') then credits_held else coalesce(credits_charged, credits_held) end`;
  const row = await db
    .selectFrom('tasks')
    .select([
      sql<number>`coalesce(sum(case when created_at >= ${dayStart} then ${used} else 0 end), 0)`.as('today'),
      sql<number>`coalesce(sum(${used}), 0)`.as('month'),
    ])
    .where('key_id', '=', keyId)
    .where('created_at', '>=', Math.min(dayStart, monthStart))
    .executeTakeFirstOrThrow();
  return { daily: Number(row.today), monthly: Number(row.month) };
}

/**
 * Refuses a submit whose hold would pass one of its key's caps. Runs inside the submit transaction before the task is
 * stored: the key row is locked first (a no-op update: FOR UPDATE on PostgreSQL, while SQLite runs one writer at a
 * time), so concurrent submits with one key, on any instance, are counted one after another and cannot overshoot.
 */
export async function checkKeyCaps(trx: Transaction<Schema>, keyId: string, needs: number, now: number): Promise<void> {
  const key = await trx
    .updateTable('api_keys')
    .set((eb) => ({ daily_credit_cap: eb.ref('daily_credit_cap') }))
    .where('id', '=', keyId)
    .returning(['daily_credit_cap', 'monthly_credit_cap'])
    .executeTakeFirst();
  if (!key || (key.daily_credit_cap === null && key.monthly_credit_cap === null)) return;
  const day = capPeriod('daily', now);
  const month = capPeriod('monthly', now);
  // Only the month's start bounds the scan when there is a monthly cap; otherwise only today's tasks are read.
  const used = await usedSince(trx, keyId, day.start, key.monthly_credit_cap === null ? day.start : month.start);
  const over = (period: CapPeriod, cap: number | null, resetsAt: number) => {
    if (cap === null || used[period] + needs <= cap) return;
    throw new AppError(
      429,
      DEVELOPER_TOOL_CODES.keyCapReached,
      KEY_CAP_MESSAGES.reached({ period, cap, used: used[period], needs, resetsAt }),
      {
        'Retry-After': String(Math.max(1, Math.ceil((resetsAt - now) / 1000))),
      },
    );
  };
  over('daily', key.daily_credit_cap, day.resetsAt);
  over('monthly', key.monthly_credit_cap, month.resetsAt);
}

/** Every key of a user with its caps and its use today and this month (UTC), the default key first. */
export async function keyCapViews(db: Kysely<Schema>, userId: string, now = Date.now()): Promise<KeyCapView[]> {
  const keys = await db
    .selectFrom('api_keys')
    .select(['id', 'name', 'is_default', 'daily_credit_cap', 'monthly_credit_cap'])
    .where('user_id', '=', userId)
    .orderBy('is_default', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  const day = capPeriod('daily', now);
  const month = capPeriod('monthly', now);
  return Promise.all(
    keys.map(async (k) => {
      const used = await usedSince(db, k.id, day.start, month.start);
      return {
        keyId: k.id,
        name: k.name,
        isDefault: k.is_default === 1,
        dailyCap: k.daily_credit_cap,
        monthlyCap: k.monthly_credit_cap,
        usedToday: used.daily,
        usedThisMonth: used.monthly,
        dayResetsAt: day.resetsAt,
        monthResetsAt: month.resetsAt,
      };
    }),
  );
}

/** Whether `next` loosens `current`: a cap removed or raised. */
const loosens = (current: number | null, next: number | null) => current !== null && (next === null || next > current);

/**
 * Sets a key's caps. `caller` is the key making the call through the public API: it may tighten its
 * own caps but not loosen them, so a leaked key cannot lift its own limit. The dashboard passes no caller.
 */
export async function setKeyCaps(
  db: Kysely<Schema>,
  userId: string,
  keyId: string,
  change: Partial<KeyCaps>,
  caller?: string,
): Promise<KeyCapView> {
  const key = await db
    .selectFrom('api_keys')
    .select(['daily_credit_cap', 'monthly_credit_cap'])
    .where('id', '=', keyId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!key) throw new AppError(404, ERROR_CODES.notFound, KEY_CAP_MESSAGES.keyNotFound);
  // A cap left out keeps its value; null removes it.
  const caps: KeyCaps = {
    dailyCap: change.dailyCap === undefined ? key.daily_credit_cap : change.dailyCap,
    monthlyCap: change.monthlyCap === undefined ? key.monthly_credit_cap : change.monthlyCap,
  };
  if (
    caller === keyId &&
    (loosens(key.daily_credit_cap, caps.dailyCap) || loosens(key.monthly_credit_cap, caps.monthlyCap))
  ) {
    throw new AppError(403, ERROR_CODES.forbidden, KEY_CAP_MESSAGES.ownRaise);
  }
  await db
    .updateTable('api_keys')
    .set({ daily_credit_cap: caps.dailyCap, monthly_credit_cap: caps.monthlyCap })
    .where('id', '=', keyId)
    .where('user_id', '=', userId)
    .execute();
  return (await keyCapViews(db, userId)).find((k) => k.keyId === keyId)!;
}
