// Daily guess budgets of email sign-in over simulated weeks (the `now` argument, no sleeping), on SQLite and (with
// TEST_DATABASE_URL) PostgreSQL.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, LOGIN_CODES, LOGIN_GUESSES } from '../../src/lib/product-rules';
import { migrateToLatest, type AppDatabase } from '../db';
import { databaseEngines } from '../db/test-support/engines';
import { AppError } from '../http/errors';
import { consumeLoginCode, consumeLoginLink, issueLoginCode } from './codes';

const engines = databaseEngines('codes', { maxConnections: 20 });

const KEY = Buffer.alloc(32, 7);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = Date.UTC(2030, 0, 1);
const wrong = (code: string) => String((Number(code) + 1) % 10_000).padStart(4, '0');

/** The message of a refusal, or 'ok' for an accepted code. */
async function outcome(run: Promise<unknown>): Promise<string> {
  try {
    await run;
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return error.message;
    throw error;
  }
}

describe.each(engines)('sign-in guess budgets on $label', (engine) => {
  let database: AppDatabase;
  let dispose: () => Promise<void>;
  beforeEach(async () => {
    ({ database, dispose } = await engine.open());
    await migrateToLatest(database);
  });
  afterEach(() => dispose());

  const issue = (email: string, ip: string, now: number) => issueLoginCode(database.db, KEY, { email, ip, now });
  const guess = (email: string, code: string, attemptId: string, ip: string, now: number) =>
    outcome(consumeLoginCode(database.db, KEY, { email, code, attemptId, ip, now }));

  it('lets at most 3 wrong codes per email through in any 24 h, across new codes and IPs: 90 in 30 days', async () => {
    const email = 'victim@example.com';
    let wrongAccepted = 0;
    const perDay = new Map<number, number>();
    // The best a guesser can do: a fresh code every 2 hours from a fresh IP, guessing until refused.
    for (let now = START, n = 0; now < START + 30 * DAY; now += 2 * HOUR, n += 1) {
      const ip = `198.51.100.${n % 250}`;
      const sent = await issue(email, ip, now);
      for (;;) {
        const answer = await guess(email, wrong(sent.code), sent.attemptId, ip, now);
        if (answer !== ACCOUNT_MESSAGES.codeInvalid) {
          expect(answer).toBe(ACCOUNT_MESSAGES.emailGuessCap);
          break;
        }
        wrongAccepted += 1;
        const day = Math.floor((now - START) / DAY);
        perDay.set(day, (perDay.get(day) ?? 0) + 1);
      }
    }
    expect(wrongAccepted).toBe(30 * LOGIN_GUESSES.perEmailPerDay);
    expect([...perDay.values()].every((n) => n === LOGIN_GUESSES.perEmailPerDay)).toBe(true);
    // docs/security.md: 90 wrong guesses plus one more try against 10^4 codes stays under 1 %.
    expect((wrongAccepted + 1) / 10 ** 4).toBeLessThanOrEqual(0.01);
  });

  it('refuses even the right code while the budget is spent, and lets it in once the oldest wrong guess is a day old', async () => {
    const email = 'owner@example.com';
    const first = await issue(email, '203.0.113.1', START);
    for (let i = 0; i < LOGIN_GUESSES.perEmailPerDay; i += 1) {
      expect(await guess(email, wrong(first.code), first.attemptId, '203.0.113.1', START + i)).toBe(
        ACCOUNT_MESSAGES.codeInvalid,
      );
    }
    const second = await issue(email, '203.0.113.2', START + DAY - 5 * 60_000);
    expect(await guess(email, second.code, second.attemptId, '203.0.113.2', START + DAY - 1)).toBe(
      ACCOUNT_MESSAGES.emailGuessCap,
    );
    expect(await guess(email, second.code, second.attemptId, '203.0.113.2', START + DAY)).toBe('ok');
    // The right code did not spend the budget: two more wrong codes still fit today.
    const third = await issue(email, '203.0.113.3', START + DAY + 2);
    expect(await guess(email, wrong(third.code), third.attemptId, '203.0.113.3', START + DAY + 3)).toBe(
      ACCOUNT_MESSAGES.codeInvalid,
    );
  });

  it('stops one IP guessing across 5 emails at its own budget', async () => {
    const ip = '192.0.2.77';
    const answers: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const email = `person${i}@example.com`;
      const sent = await issue(email, ip, START + i);
      for (let g = 0; g < LOGIN_GUESSES.perEmailPerDay; g += 1)
        answers.push(await guess(email, wrong(sent.code), sent.attemptId, ip, START + i));
    }
    expect(answers.filter((a) => a === ACCOUNT_MESSAGES.codeInvalid)).toHaveLength(LOGIN_GUESSES.perIpPerDay);
    expect(answers.slice(LOGIN_GUESSES.perIpPerDay).every((a) => a === ACCOUNT_MESSAGES.ipGuessCap)).toBe(true);
    // The mailbox owner of the last address, elsewhere, is not held up by that IP.
    const own = await issue('person4@example.com', '203.0.113.50', START + 10);
    expect(await guess('person4@example.com', own.code, own.attemptId, '203.0.113.50', START + 11)).toBe('ok');
  });

  it('never lets parallel wrong guesses past the budget', async () => {
    const sent = await issue('race@example.com', '203.0.113.9', START);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        guess('race@example.com', wrong(sent.code), sent.attemptId, `198.51.100.${i}`, START),
      ),
    );
    expect(answers.filter((a) => a === ACCOUNT_MESSAGES.codeInvalid).length).toBeLessThanOrEqual(
      LOGIN_GUESSES.perEmailPerDay,
    );
    expect(answers.every((a) => a === ACCOUNT_MESSAGES.codeInvalid || a === ACCOUNT_MESSAGES.emailGuessCap)).toBe(true);
    const counted = await database.db
      .selectFrom('login_guesses')
      .select('id')
      .where('email', '=', 'race@example.com')
      .execute();
    expect(counted.length).toBeLessThanOrEqual(LOGIN_GUESSES.perEmailPerDay);
  });

  it('signs in with the link whatever the budgets say, once, and only within the code lifetime', async () => {
    const sent = await issue('linked@example.com', '203.0.113.1', START);
    for (let i = 0; i < LOGIN_GUESSES.perEmailPerDay + 1; i += 1)
      await guess('linked@example.com', wrong(sent.code), sent.attemptId, '203.0.113.1', START);
    expect(await consumeLoginLink(database.db, { token: sent.linkToken, now: START + 1 })).toBe('linked@example.com');
    expect(await outcome(consumeLoginLink(database.db, { token: sent.linkToken, now: START + 2 }))).toBe(
      ACCOUNT_MESSAGES.linkUsed,
    );
    // Code and link sign in once between them.
    expect(await guess('linked@example.com', sent.code, sent.attemptId, '203.0.113.1', START + 3)).toBe(
      ACCOUNT_MESSAGES.codeUsed,
    );

    const late = await issue('linked@example.com', '203.0.113.1', START + HOUR);
    expect(
      await outcome(consumeLoginLink(database.db, { token: late.linkToken, now: START + HOUR + LOGIN_CODES.ttlMs })),
    ).toBe(ACCOUNT_MESSAGES.linkExpired);
    expect(await outcome(consumeLoginLink(database.db, { token: randomBytes(32).toString('base64url') }))).toBe(
      ACCOUNT_MESSAGES.linkInvalid,
    );
  });
});
