// How a task ended, as tests check it: the result media it stored, and a failure refunded in full.
import { expect } from 'vitest';
import { expectCharged } from './ledger';
import { waitForTask, type TasksTestApp, type TestUser } from './tasks';

/** The result media rows a task stored (the poster frame stored beside a video is not a result). */
export function taskMedia(t: Pick<TasksTestApp, 'database'>, taskId: string) {
  return t.database.db
    .selectFrom('media')
    .selectAll()
    .where('task_id', '=', taskId)
    .where('poster_of', 'is', null)
    .execute();
}

/**
 * A failed task of a user with no other task: its reason, nothing charged, no media, and the ledger is the grant,
 * this task's hold and its refund in full (ledger sum = balance = the grant). A `free` feature holds nothing.
 */
export async function expectFailedAndRefunded(
  t: Pick<TasksTestApp, 'database'>,
  user: TestUser,
  taskId: string,
  reasonPart: string,
  o: { free?: boolean } = {},
) {
  const task = await waitForTask(t, taskId);
  expect(task.status, task.error ?? '').toBe('failed');
  expect(task.error).toContain(reasonPart);
  expect(task.credits_charged).toBe(0);
  expect(await taskMedia(t, taskId)).toHaveLength(0);
  const credits = await expectCharged(t, user, 0);
  const row = (l: { reason: string; reference: string | null; delta: number }) => [l.reason, l.reference, l.delta];
  const own = o.free
    ? []
    : [
        ['task-hold', taskId, -task.credits_held],
        ['task-refund', taskId, task.credits_held],
      ];
  expect(credits.ledger.map(row)).toEqual([...credits.ledger.filter((l) => l.reason === 'grant').map(row), ...own]);
  return task;
}
