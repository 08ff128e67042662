// The run card and the history read one store of the account's runs: a status event changes both at once, so the card
// never says "Waiting for a free worker…" while the history already says running (the real server and stream).
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { routeBrowserTo } from '../../../server/test-support/browser';
import { createTasksTestApp, createUser, testEngine, type TasksTestApp } from '../../../server/test-support/tasks';
import { STORAGE_KEYS } from '../../lib/product-rules';
import { resetModals } from '../../lib/stores/modals';
import { $runs, resetRuns } from '../../lib/stores/runs';
import { $user, refreshUser } from '../../lib/stores/signed-in';
import SpeechScreen from './SpeechScreen';

let t: TasksTestApp | null = null;
let release: () => void = () => undefined;

afterEach(async () => {
  cleanup();
  release();
  resetRuns();
  localStorage.clear();
  resetModals();
  $user.set(undefined);
  await t?.close();
  t = null;
});

/** The real server with no worker yet (a run stays queued) and an engine that reports 40 % and waits. */
async function start() {
  const gate = new Promise<void>((resolve) => (release = resolve));
  t = await createTasksTestApp({ engines: [testEngine({ gate, progress: 40 })], env: { ENGINES: 'tts-common=test' } });
  const user = await createUser(t, 100);
  routeBrowserTo(t.app);
  localStorage.setItem(STORAGE_KEYS.userToken, user.token);
  await refreshUser();
}

const card = () => screen.getAllByTestId('run-card')[0]!;
const historyItem = (taskId: string) =>
  screen.queryByTestId('history')?.querySelector<HTMLElement>(`[data-task-id="${taskId}"]`) ?? null;

/** What the card and the history item of the run say now. */
function both() {
  const c = card();
  const item = c.dataset.taskId ? historyItem(c.dataset.taskId) : null;
  return { waiting: within(c).queryByText('Waiting for a free worker…') !== null, history: item?.dataset.status };
}

describe('run cards and the history read one store', () => {
  it('a status event moves the card and the history item together, queued → running → succeeded', async () => {
    await start();
    render(<SpeechScreen />);
    await act(() => Promise.resolve());
    // Every change of the page is checked: never a waiting card beside a running history item.
    const seen: Array<ReturnType<typeof both>> = [];
    const watch = new MutationObserver(() => {
      if (screen.queryAllByTestId('run-card').length) seen.push(both());
    });
    watch.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });

    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'Queued, then running' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate speech' }));
    await waitFor(() => expect(both()).toEqual({ waiting: true, history: 'queued' }), { timeout: 5000 });
    const taskId = card().dataset.taskId!;

    await t!.system.queue.start();
    await waitFor(() => expect(both()).toEqual({ waiting: false, history: 'running' }), { timeout: 5000 });
    expect(within(card()).getByText('Generating…')).toBeTruthy();
    expect(within(historyItem(taskId)!).getByRole('progressbar').getAttribute('value')).toBe(
      within(card()).getByRole('progressbar', { name: 'Task progress' }).getAttribute('value'),
    );

    release();
    await waitFor(() => expect(card().dataset.phase).toBe('succeeded'), { timeout: 5000 });
    expect(historyItem(taskId)!.dataset.status).toBe('succeeded');
    expect($runs.get()[taskId]!.view.status).toBe('succeeded');
    watch.disconnect();
    expect(seen.filter((s) => s.waiting && s.history === 'running')).toEqual([]);
    expect(seen.some((s) => s.history === 'running')).toBe(true);
  });
});
