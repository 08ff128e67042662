// Users: find or create by email at sign-in (with sign-up attribution), and the SPEC.md §3 user info shape.
import type { Kysely } from 'kysely';
import type { Schema, User } from '../db';
import { randomToken } from './crypto';
import { applyCreditChange } from '../credits';
import type { UserInfo } from '../../src/lib/api/types';
import { normalizeEmail, SIGNUP_LEDGER_REASON } from '../../src/lib/product-rules';

export interface SignUpAttribution {
  referer?: string | undefined;
  refererUrl?: string | undefined;
  countryCode?: string | undefined;
}

function newUserId(): string {
  // 16+ characters, so SPEC.md §9 masking applies on the dashboard; URL-safe for logs and CLIs.
  return 'u' + randomToken(12).replace(/[-_]/g, 'x');
}

/**
 * The user for this email, created on first sign-in; `created` tells sign-up from sign-in. A new account gets
 * `signupCredits` (SIGNUP_CREDITS) in the same transaction as its row, with a 'signup-grant' ledger row: only the
 * insert that wins the unique email index commits, so concurrent first sign-ins (email code and OAuth alike) grant
 * once.
 */
export async function findOrCreateUserByEmail(
  db: Kysely<Schema>,
  email: string,
  attribution: SignUpAttribution & { name?: string },
  o: { signupCredits?: number } = {},
): Promise<{ user: User; created: boolean }> {
  const existing = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  if (existing) return { user: existing, created: false };
  const now = Date.now();
  try {
    const user = await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('users')
        .values({
          id: newUserId(),
          email,
          name: attribution.name ?? email.split('@')[0]!,
          country_code: attribution.countryCode ?? null,
          referer: attribution.referer || null,
          referer_url: attribution.refererUrl || null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (!o.signupCredits) return row;
      const { balance } = await applyCreditChange(trx, {
        userId: row.id,
        delta: o.signupCredits,
        reason: SIGNUP_LEDGER_REASON,
        reference: null,
      });
      return { ...row, credits: balance };
    });
    return { user, created: true };
  } catch (error) {
    // Two first sign-ins at once: the unique email index lets one insert win; the other reads it.
    const winner = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    if (winner) return { user: winner, created: false };
    throw error;
  }
}

/** By id (as given) or by email (normalised the way sign-in stores it). */
export async function findUser(db: Kysely<Schema>, idOrEmail: string): Promise<User | undefined> {
  const id = idOrEmail.trim();
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', id), eb('email', '=', normalizeEmail(idOrEmail))]))
    .executeTakeFirst();
}

export function toUserInfo(user: User, extra: { token: string; isOld: boolean; countryCode: string }): UserInfo {
  return {
    userId: user.id,
    userEmail: user.email ?? '',
    userName: user.name,
    userPoints: user.credits,
    company: user.company ?? '',
    channel: user.channel ?? '',
    valid: user.suspended ? 1 : 0,
    token: extra.token,
    isOld: extra.isOld,
    countryCode: extra.countryCode || user.country_code || '',
    infoAsked: user.info_asked_at !== null,
  };
}
