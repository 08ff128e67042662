// The history panel on the real server: the screen's own tasks with result, charge and error; delete, refresh, load errors.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeBrowserTo, type RoutedBrowser } from '../../../server/test-support/browser';
import { createTasksTestApp, createUser, testEngine, waitForTask, type TasksTestApp, type TestUser } from '../../../server/test-support/tasks';
import type { UserInfo } from '../../lib/api';
import { STORAGE_KEYS, TASK_LIMITS, type Feature } from '../../lib/spec';
import { $user } from '../../lib/stores/session';
import History from './History';
import { bumpHistory } from './history-store';

const LIST = '/api-playground/video_tools/v1/get_list';
const SPEECH: readonly Feature[] = ['tts-common', 'tts-pro', 'tts-clone'];

let t: TasksTestApp;
let user: TestUser;
let net: RoutedBrowser;

beforeEach(async () => {
  // Speech succeeds on one test engine; dialogue fails on another, so both kinds of item exist.
  t = await createTasksTestApp({
    engines: [testEngine({ name: 'ok', features: ['tts-common', 'tts-pro'] }), testEngine({ name: 'bad', features: ['dialogue'], fail: 'No voices today' })],
    env: { ENGINES: 'tts-common=ok,tts-pro=ok,dialogue=bad' },
  });
  await t.system.queue.start();
  user = await createUser(t, 500);
  net = routeBrowserTo(t.app);
  localStorage.setItem(STORAGE_KEYS.userToken, user.token);
  $user.set({ userId: user.id } as UserInfo);
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  $user.set(undefined);
  await t.close();
});

/** Submits through the API (not the browser) and waits until the task is finished. */
async function task(path: string, body: unknown): Promise<string> {
  const res = await t.app.request(`/api-playground${path}`, { method: 'POST', headers: { 'content-type': 'application/json', token: user.token }, body: JSON.stringify(body) });
  const id = ((await res.json()) as { data: { taskId: string } }).data.taskId;
  await waitForTask(t, id);
  return id;
}
const speak = (text: string, quality: 'common' | 'pro' = 'common') => task('/speech/v1/tts', { text, voiceId: 'en-us-female-1', quality });
const converse = () => task('/speech/v1/dialogue', { lines: [{ speaker: 'A', text: 'Hi' }], voices: { A: 'en-us-female-1' } });

const items = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>('[data-task-id]')];

describe('History', () => {
  it("lists the screen's own features, newest first, with name, status, charge, player and download", async () => {
    const common = await speak('first words');
    const pro = await speak('second words', 'pro');
    await converse();
    const { container } = render(<History features={SPEECH} screen="speech" />);
    await waitFor(() => expect(items(container)).toHaveLength(2));
    expect(items(container).map((li) => li.dataset.taskId)).toEqual([pro, common]);
    const first = within(items(container)[0]!);
    expect(first.getByText('Speech · Pro')).toBeTruthy();
    expect(first.getByText(/· succeeded · 1 credit$/)).toBeTruthy();
    expect(first.getByLabelText('Speech · Pro result').tagName).toBe('AUDIO');
    expect(first.getByRole('link', { name: 'Download' }).getAttribute('download')).toBe(`${pro}.wav`);
    expect(within(items(container)[1]!).getByText('Speech · Common')).toBeTruthy();
    // Several features filter the newest page here; the server was asked for all features.
    expect(net.bodiesTo(LIST)).toEqual([{ page: 1, pageSize: TASK_LIMITS.maxPageSize }]);
  });

  it('asks the server for the one feature of a single-feature screen, and shows a failed task with its error and no player', async () => {
    await speak('not a dialogue');
    const failed = await converse();
    const { container } = render(<History features={['dialogue']} screen="dialogue" />);
    await waitFor(() => expect(items(container)).toHaveLength(1));
    const item = within(items(container)[0]!);
    expect(items(container)[0]!.dataset.taskId).toBe(failed);
    expect(item.getByText('Dialogue')).toBeTruthy();
    expect(item.getByText(/· failed · 0 credits$/)).toBeTruthy();
    expect(item.getByText(/No voices today/)).toBeTruthy();
    expect(items(container)[0]!.querySelector('audio')).toBeNull();
    expect(net.bodiesTo(LIST)).toEqual([{ page: 1, pageSize: TASK_LIMITS.defaultPageSize, feature: 'dialogue' }]);
  });

  it(`shows at most ${TASK_LIMITS.defaultPageSize} tasks`, async () => {
    for (let i = 0; i <= TASK_LIMITS.defaultPageSize; i++) await speak(`line ${i}`);
    const { container } = render(<History features={SPEECH} screen="speech" />);
    await waitFor(() => expect(items(container)).toHaveLength(TASK_LIMITS.defaultPageSize));
  });

  it('deletes a task on the server and from the list', async () => {
    const keep = await speak('keep me');
    const drop = await speak('drop me');
    const { container } = render(<History features={SPEECH} screen="speech" />);
    await waitFor(() => expect(items(container)).toHaveLength(2));
    fireEvent.click(within(items(container)[0]!).getByRole('button', { name: /^Delete Speech · Common task from / }));
    await waitFor(() => expect(items(container).map((li) => li.dataset.taskId)).toEqual([keep]));
    expect(net.bodiesTo('/api-playground/video_tools/v1/delete')).toEqual([{ taskId: drop }]);
    expect(await t.database.db.selectFrom('tasks').select('id').where('id', '=', drop).execute()).toEqual([]);
  });

  it('says so when there is nothing yet', async () => {
    render(<History features={SPEECH} screen="speech" />);
    expect(await screen.findByText('Nothing yet. Your results appear here for 7 days.')).toBeTruthy();
  });

  it('reloads on Refresh and when a task is created or finishes elsewhere on the page', async () => {
    const { container } = render(<History features={SPEECH} screen="speech" />);
    await screen.findByText('Nothing yet. Your results appear here for 7 days.');
    const first = await speak('made after the list loaded');
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(items(container).map((li) => li.dataset.taskId)).toEqual([first]));
    const second = await speak('and another');
    act(() => bumpHistory());
    await waitFor(() => expect(items(container).map((li) => li.dataset.taskId)).toEqual([second, first]));
  });

  it('says what went wrong when the list cannot load, and Refresh tries again', async () => {
    await speak('waiting for the network');
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    const { container } = render(<History features={SPEECH} screen="speech" />);
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to fetch. Use Refresh to try again.');
    routeBrowserTo(t.app);
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(items(container)).toHaveLength(1));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows nothing to a guest and asks the server nothing', async () => {
    $user.set(null);
    const { container } = render(<History features={SPEECH} screen="speech" />);
    await act(() => Promise.resolve());
    expect(container.innerHTML).toBe('');
    expect(net.sent).toEqual([]);
  });
});
