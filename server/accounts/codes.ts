// Email sign-in: codes bound to attempt ids, one-time links, send limits and daily guess budgets (SPEC.md §4, §7;
// docs/security.md "Sign-in limits").
import type { Kysely } from 'kysely';
import type { Schema } from '../db';
import { AppError } from '../http/errors';
import { ERROR_CODES, ACCOUNT_MESSAGES, LOGIN, LOGIN_CODES, LOGIN_GUESSES } from '../../src/lib/product-rules';
import { hmacHex, randomDigits, randomToken, sameHex, sha256Hex } from './crypto';

function codeHash(hashKey: Buffer, email: string, code: string): string {
  // The email is part of the hashed text so one code's hash says nothing about another address's code.
  return hmacHex(hashKey, `${email}\n${code}`);
}

function tooMany(message: string, retryAfterMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError(429, ERROR_CODES.rateLimited, message, { 'Retry-After': String(seconds) });
}

const refused = (message: string) => new AppError(400, ERROR_CODES.invalidInput, message);

/** What one POST /user/code made: the code and link token go into the mail, the attempt id to the browser. */
export interface IssuedLogin {
  id: number;
  code: string;
  attemptId: string;
  linkToken: string;
}

/**
 * Creates a code, its attempt id and its one-time link for the email; refuses with 429 when a send limit is
 * reached. The resend interval and the tighter hourly cap count per email *and requesting IP*, so a stranger
 * asking for codes spends their own budget, not the owner's; the wider per-email cap bounds the mail sent.
 */
export async function issueLoginCode(
  db: Kysely<Schema>,
  hashKey: Buffer,
  input: { email: string; ip: string; now?: number },
): Promise<IssuedLogin> {
  const now = input.now ?? Date.now();
  const windowStart = now - LOGIN_CODES.windowMs;
  const issued = {
    code: randomDigits(LOGIN.codeDigits),
    attemptId: randomToken(LOGIN_CODES.secretBytes),
    linkToken: randomToken(LOGIN_CODES.secretBytes),
  };
  const id = await db.transaction().execute(async (trx) => {
    const mine = await trx
      .selectFrom('login_codes')
      .select('created_at')
      .where('email', '=', input.email)
      .where('ip', '=', input.ip)
      .where('created_at', '>', windowStart)
      .orderBy('created_at', 'desc')
      .execute();
    const latest = mine[0];
    if (latest && now - latest.created_at < LOGIN_CODES.resendIntervalMs) {
      throw tooMany(ACCOUNT_MESSAGES.resendTooSoon, latest.created_at + LOGIN_CODES.resendIntervalMs - now);
    }
    if (mine.length >= LOGIN_CODES.perEmailPerIpPerHour) {
      throw tooMany(ACCOUNT_MESSAGES.emailIpHourlyCap, mine.at(-1)!.created_at + LOGIN_CODES.windowMs - now);
    }
    const toEmail = await oldestInWindow(trx, 'email', input.email, windowStart, LOGIN_CODES.perEmailPerHour);
    if (toEmail.length >= LOGIN_CODES.perEmailPerHour) {
      throw tooMany(ACCOUNT_MESSAGES.emailHourlyCap, toEmail[0]!.created_at + LOGIN_CODES.windowMs - now);
    }
    const fromIp = await oldestInWindow(trx, 'ip', input.ip, windowStart, LOGIN_CODES.perIpPerHour);
    if (fromIp.length >= LOGIN_CODES.perIpPerHour) {
      throw tooMany(ACCOUNT_MESSAGES.ipHourlyCap, fromIp[0]!.created_at + LOGIN_CODES.windowMs - now);
    }
    const row = await trx
      .insertInto('login_codes')
      .values({
        email: input.email,
        code_hash: codeHash(hashKey, input.email, issued.code),
        // Both are 32 random bytes, so a plain SHA-256 stores them unguessably (as session tokens are).
        attempt_hash: sha256Hex(issued.attemptId),
        link_hash: sha256Hex(issued.linkToken),
        created_at: now,
        expires_at: now + LOGIN_CODES.ttlMs,
        ip: input.ip,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  });
  return { id, ...issued };
}

function oldestInWindow(trx: Kysely<Schema>, column: 'email' | 'ip', value: string, since: number, limit: number) {
  return trx
    .selectFrom('login_codes')
    .select('created_at')
    .where(column, '=', value)
    .where('created_at', '>', since)
    .orderBy('created_at', 'asc')
    .limit(limit)
    .execute();
}

/** Forgets a code whose mail could not be sent, so the resend interval does not hold the person up. */
export async function withdrawLoginCode(db: Kysely<Schema>, id: number): Promise<void> {
  await db.deleteFrom('login_codes').where('id', '=', id).execute();
}

/**
 * Takes one guess from the email's and the IP's daily budgets, or refuses with 429. The guess is written
 * first and counted after, so parallel guesses can at worst refuse each other, never all get through; the
 * caller deletes the row again when the code was right, since only wrong guesses count.
 */
async function reserveGuess(db: Kysely<Schema>, input: { email: string; ip: string; now: number }): Promise<number> {
  const since = input.now - LOGIN_GUESSES.windowMs;
  await db
    .deleteFrom('login_guesses')
    .where('created_at', '<=', since)
    .where((eb) => eb.or([eb('email', '=', input.email), eb('ip', '=', input.ip)]))
    .execute();
  const row = await db
    .insertInto('login_guesses')
    .values({ email: input.email, ip: input.ip, created_at: input.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  const budgets = [
    {
      column: 'email',
      value: input.email,
      limit: LOGIN_GUESSES.perEmailPerDay,
      message: ACCOUNT_MESSAGES.emailGuessCap,
    },
    { column: 'ip', value: input.ip, limit: LOGIN_GUESSES.perIpPerDay, message: ACCOUNT_MESSAGES.ipGuessCap },
  ] as const;
  for (const budget of budgets) {
    const others = await db
      .selectFrom('login_guesses')
      .select('created_at')
      .where(budget.column, '=', budget.value)
      .where('created_at', '>', since)
      .where('id', '!=', id)
      .orderBy('created_at', 'asc')
      .execute();
    if (others.length >= budget.limit) {
      await db.deleteFrom('login_guesses').where('id', '=', id).execute();
      // This guess fits once enough of the others have left the sliding window.
      throw tooMany(
        budget.message,
        others[others.length - budget.limit]!.created_at + LOGIN_GUESSES.windowMs - input.now,
      );
    }
  }
  return id;
}

/**
 * Accepts the code of one attempt (the id POST /user/code answered). Guesses name their attempt, so a
 * stranger's guesses on their own attempts never spoil the owner's code; what bounds guessing is the daily
 * budget per email and per IP, spent only by wrong codes. A used attempt says so without testing the code.
 */
export async function consumeLoginCode(
  db: Kysely<Schema>,
  hashKey: Buffer,
  input: { email: string; code: string; attemptId?: string; ip: string; now?: number },
): Promise<void> {
  const now = input.now ?? Date.now();
  // Without an attempt id (SPEC.md §7's own call) a guess meets only the email's newest code, so one guess still
  // tests one code and the guessing bound in docs/security.md holds as with the id.
  const row = input.attemptId
    ? await db
        .selectFrom('login_codes')
        .selectAll()
        .where('attempt_hash', '=', sha256Hex(input.attemptId))
        .executeTakeFirst()
    : await db
        .selectFrom('login_codes')
        .selectAll()
        .where('email', '=', input.email)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
  if (!row || row.email !== input.email)
    throw refused(input.attemptId ? ACCOUNT_MESSAGES.attemptUnknown : ACCOUNT_MESSAGES.codeInvalid);
  if (row.consumed_at !== null) throw refused(ACCOUNT_MESSAGES.codeUsed);
  if (row.expires_at <= now) throw refused(ACCOUNT_MESSAGES.codeExpired);
  const guess = await reserveGuess(db, { email: input.email, ip: input.ip, now });
  if (!sameHex(row.code_hash, codeHash(hashKey, input.email, input.code))) throw refused(ACCOUNT_MESSAGES.codeInvalid);
  await db.deleteFrom('login_guesses').where('id', '=', guess).execute();
  await markUsed(db, row.id, now, ACCOUNT_MESSAGES.codeUsed);
}

/**
 * Accepts the one-time link mailed with a code and answers its email. The token is 32 random bytes, so no
 * guess budget applies: the owner can always get in with it, whatever strangers did to the budgets.
 */
export async function consumeLoginLink(db: Kysely<Schema>, input: { token: string; now?: number }): Promise<string> {
  const now = input.now ?? Date.now();
  const row = await db
    .selectFrom('login_codes')
    .selectAll()
    .where('link_hash', '=', sha256Hex(input.token))
    .executeTakeFirst();
  if (!row) throw refused(ACCOUNT_MESSAGES.linkInvalid);
  if (row.consumed_at !== null) throw refused(ACCOUNT_MESSAGES.linkUsed);
  if (row.expires_at <= now) throw refused(ACCOUNT_MESSAGES.linkExpired);
  await markUsed(db, row.id, now, ACCOUNT_MESSAGES.linkUsed);
  return row.email;
}

/** The code and its link sign in once between them; a parallel request that lost the race is told it was used. */
async function markUsed(db: Kysely<Schema>, id: number, now: number, message: string): Promise<void> {
  const used = await db
    .updateTable('login_codes')
    .set({ consumed_at: now })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) === 0) throw refused(message);
}
