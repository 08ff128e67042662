// Email login codes: issue with resend and hourly limits, verify with an attempt cap (SPEC.md §4, §7 /user/code).
import type { Kysely } from 'kysely';
import type { Schema } from '../db';
import { AppError } from '../http/errors';
import { ERROR_CODES } from '../../src/lib/spec/errors';
import { ACCOUNT_MESSAGES, LOGIN, LOGIN_CODES } from '../../src/lib/spec';
import { hmacHex, randomDigits, sameHex } from './crypto';

function codeHash(hashKey: Buffer, email: string, code: string): string {
  // The email is part of the hashed text so one code's hash says nothing about another address's code.
  return hmacHex(hashKey, `${email}\n${code}`);
}

function tooMany(message: string, retryAfterMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError(429, ERROR_CODES.rateLimited, message, { 'Retry-After': String(seconds) });
}

/** Creates a code for the email and returns it (to be mailed); refuses with 429 when a limit is reached. */
export async function issueLoginCode(
  db: Kysely<Schema>,
  hashKey: Buffer,
  input: { email: string; ip: string; now?: number },
): Promise<string> {
  const now = input.now ?? Date.now();
  const windowStart = now - LOGIN_CODES.windowMs;
  const code = randomDigits(LOGIN.codeDigits);
  await db.transaction().execute(async (trx) => {
    const recent = await trx
      .selectFrom('login_codes')
      .select('created_at')
      .where('email', '=', input.email)
      .where('created_at', '>', windowStart)
      .orderBy('created_at', 'desc')
      .execute();
    const latest = recent[0];
    if (latest && now - latest.created_at < LOGIN_CODES.resendIntervalMs) {
      throw tooMany(ACCOUNT_MESSAGES.resendTooSoon, latest.created_at + LOGIN_CODES.resendIntervalMs - now);
    }
    if (recent.length >= LOGIN_CODES.perEmailPerHour) {
      throw tooMany(ACCOUNT_MESSAGES.emailHourlyCap, recent.at(-1)!.created_at + LOGIN_CODES.windowMs - now);
    }
    const fromIp = await trx
      .selectFrom('login_codes')
      .select('created_at')
      .where('ip', '=', input.ip)
      .where('created_at', '>', windowStart)
      .orderBy('created_at', 'asc')
      .limit(LOGIN_CODES.perIpPerHour)
      .execute();
    if (fromIp.length >= LOGIN_CODES.perIpPerHour) {
      throw tooMany(ACCOUNT_MESSAGES.ipHourlyCap, fromIp[0]!.created_at + LOGIN_CODES.windowMs - now);
    }
    await trx
      .insertInto('login_codes')
      .values({
        email: input.email,
        code_hash: codeHash(hashKey, input.email, code),
        created_at: now,
        expires_at: now + LOGIN_CODES.ttlMs,
        ip: input.ip,
      })
      .execute();
  });
  return code;
}

/** Forgets a code whose mail could not be sent, so the resend interval does not lock the person out. */
export async function withdrawLoginCode(db: Kysely<Schema>, email: string, createdAfter: number): Promise<void> {
  await db.deleteFrom('login_codes').where('email', '=', email).where('created_at', '>=', createdAfter).execute();
}

/**
 * Accepts the newest unused code for the email. Every guess first takes one attempt with a guarded UPDATE,
 * so parallel guesses cannot exceed the cap: after 5 wrong guesses even the right code is refused.
 */
export async function consumeLoginCode(
  db: Kysely<Schema>,
  hashKey: Buffer,
  input: { email: string; code: string; now?: number },
): Promise<void> {
  const now = input.now ?? Date.now();
  const row = await db
    .selectFrom('login_codes')
    .selectAll()
    .where('email', '=', input.email)
    .where('consumed_at', 'is', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row || row.expires_at <= now) throw new AppError(400, ERROR_CODES.invalidInput, ACCOUNT_MESSAGES.codeInvalid);
  const attempt = await db
    .updateTable('login_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', row.id)
    .where('attempts', '<', LOGIN_CODES.maxAttempts)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  if (Number(attempt.numUpdatedRows) === 0) {
    throw new AppError(400, ERROR_CODES.invalidInput, ACCOUNT_MESSAGES.codeExhausted);
  }
  if (!sameHex(row.code_hash, codeHash(hashKey, input.email, input.code))) {
    throw new AppError(400, ERROR_CODES.invalidInput, ACCOUNT_MESSAGES.codeInvalid);
  }
  const used = await db
    .updateTable('login_codes')
    .set({ consumed_at: now })
    .where('id', '=', row.id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  // A parallel request with the same right code won the race; a code signs in once.
  if (Number(used.numUpdatedRows) === 0) throw new AppError(400, ERROR_CODES.invalidInput, ACCOUNT_MESSAGES.codeInvalid);
}
