// What the provider adapter tests do to a task and read of it beside test-support's helpers: submitting it through the
// playground, its owner deleting it, and the provider costs recorded for it.
import { expect } from 'vitest';
import type { TasksTestApp, TestUser } from '../../test-support/tasks';
import { postPlayground } from '../../test-support/customer-calls';

/** Submits a task through the playground's `route` (as the site does); the new task's id. */
export async function playgroundTask(t: TasksTestApp, user: TestUser, route: string, body: unknown): Promise<string> {
  const res = await postPlayground(t, user, route, body);
  return ((await res.json()) as { data: { taskId: string } }).data.taskId;
}

/** The task's owner deletes it through the playground (a running one is canceled), and the delete is taken. */
export async function ownerDeletes(t: TasksTestApp, user: TestUser, taskId: string): Promise<void> {
  const res = await postPlayground(t, user, 'video_tools/v1/delete', { taskId });
  expect(res.status).toBe(200);
}

/** The provider costs recorded for a task, in the order they were recorded. */
export function providerCosts(t: Pick<TasksTestApp, 'database'>, taskId: string) {
  return t.database.db
    .selectFrom('task_provider_costs')
    .select(['provider', 'amount', 'unit', 'usd', 'estimated'])
    .where('task_id', '=', taskId)
    .orderBy('id')
    .execute();
}
