// Test-only: what the ledger says once tasks ran: the balance is the grant less what was charged, and every credit
// movement is on the ledger.
import { expect } from 'vitest';
import { creditState, type TasksTestApp, type TestUser } from './tasks';

/** The reasons of one task's ledger rows, in order (hold, then settle or refund). */
export async function taskLedger(t: Pick<TasksTestApp, 'database'>, userId: string, taskId: string) {
  return (await creditState(t, userId)).ledger.filter((r) => r.reference === taskId).map((r) => r.reason);
}

/** What the user was granted (the ledger's grant rows). */
function granted(ledger: Array<{ reason: string; delta: number }>): number {
  return ledger.filter((l) => l.reason === 'grant').reduce((n, l) => n + l.delta, 0);
}

/** The ledger ends right: the balance is the grant minus `charged`, and every credit movement is on the ledger. */
export async function expectCharged(t: Pick<TasksTestApp, 'database'>, user: TestUser, charged: number) {
  const credits = await creditState(t, user.id);
  expect(credits.balance).toBe(granted(credits.ledger) - charged);
  expect(credits.ledgerSum).toBe(credits.balance);
  return credits;
}

/** Charged once (one hold, no refund), and the ledger ends right as `expectCharged` says. */
export async function expectChargedOnce(t: Pick<TasksTestApp, 'database'>, user: TestUser, charged: number) {
  const credits = await expectCharged(t, user, charged);
  expect(credits.ledger.filter((l) => l.reason === 'task-hold')).toHaveLength(1);
  expect(credits.ledger.filter((l) => l.reason === 'task-refund')).toHaveLength(0);
  return credits;
}
