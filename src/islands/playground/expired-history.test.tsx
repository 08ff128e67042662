// The history says "Outputs expired on <date>" for a task whose results retention removed, instead of a player with a
// dead link.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testEngine, type TestTaskApp, type TestUser, testApps } from '../../../server/test-support/task-apps';
import type { UserInfo } from '../../lib/api';
import { STORAGE_KEYS, TASK_MESSAGES } from '../../lib/product-rules';
import { $user } from '../../lib/stores/signed-in';
import History from './History';

const openApp = testApps();
let t: TestTaskApp;
let user: TestUser;

beforeEach(async () => {
  // The real server with its task system answers the history call.
  t = await openApp({ engines: [testEngine()], env: { ENGINES: 'tts-common=test' }, start: 'queue' });
  user = await t.createUser(10);
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) => t.app.request(String(input), init));
  localStorage.setItem(STORAGE_KEYS.userToken, user.token);
  $user.set({ userId: user.id } as UserInfo);
});
afterEach(async () => {
  cleanup();
  $user.set(undefined);
  localStorage.clear();
  vi.unstubAllGlobals();
});

async function speak(text: string): Promise<string> {
  const res = await t.app.request('/api-playground/speech/v1/tts', {
    method: 'POST',
    headers: { 'content-type': 'application/json', token: user.token },
    body: JSON.stringify({ text, voiceId: 'en-us-male-1' }),
  });
  const id = ((await res.json()) as { data: { taskId: string } }).data.taskId;
  await t.waitForTask(id);
  return id;
}

describe('history of expired results', () => {
  it('shows the expiry date in place of the player; a kept result still has its player', async () => {
    const kept = await speak('kept');
    const gone = await speak('gone');
    const expiredAt = Date.UTC(2025, 0, 15, 12);
    await t.database.db.updateTable('media').set({ expires_at: expiredAt }).where('task_id', '=', gone).execute();
    await t.system.cleanup();

    const { container } = render(<History features={['tts-common']} screen="speech" />);
    const expected = TASK_MESSAGES.outputsExpiredOn(new Date(expiredAt).toLocaleDateString());
    await waitFor(() => expect(screen.getByText(expected)).toBeTruthy());
    const goneItem = container.querySelector(`[data-task-id="${gone}"]`)!;
    const keptItem = container.querySelector(`[data-task-id="${kept}"]`)!;
    expect(goneItem.textContent).toContain(expected);
    expect(goneItem.querySelector('audio')).toBeNull();
    expect(keptItem.querySelector('audio')).not.toBeNull();
    expect(keptItem.querySelector('[data-testid="outputs-expired"]')).toBeNull();
  });
});
