// The history panel on the real server: summary, named downloads, server-side filter and search, delete with undo,
// re-run, ?task=, errors.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routeBrowserTo } from '../../../server/test-support/browser';
import { postJson } from '../../../server/test-support/post-json';
import { waitForTask } from '../../../server/test-support/tasks';
import { HISTORY, TASK_LIMITS, type Feature } from '../../lib/product-rules';
import { $user, refreshUser } from '../../lib/stores/signed-in';
import History from './History';
import { bumpHistory } from './history-store';
import { signedInPageEachTest } from '../shared/page.fixtures';

const LIST = '/api-playground/video_tools/v1/get_list';
const SPEECH: readonly Feature[] = ['tts-common', 'tts-pro', 'tts-clone'];

// Speech succeeds on one test engine; dialogue fails on another, so both kinds of item exist.
const page = signedInPageEachTest(500);
afterEach(() => {
  vi.useRealTimers();
  history.replaceState(null, '', '/');
});

/** Submits through the API (not the browser) and waits until the task is finished. */
async function task(path: string, body: unknown): Promise<string> {
  const id = (
    await postJson<{ data: { taskId: string } }>(page.t.app, `/api-playground${path}`, body, { token: page.user.token })
  ).body.data.taskId;
  await waitForTask(page.t, id);
  return id;
}
const speak = (text: string, quality: 'common' | 'pro' = 'common', voiceId = 'en-us-female-1') =>
  task('/speech/v1/tts', { text, voiceId, quality });
const converse = () =>
  task('/speech/v1/dialogue', { lines: [{ speaker: 'A', text: 'Hi' }], voices: { A: 'en-us-female-1' } });

const items = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>('[data-task-id]')];
const ids = (container: HTMLElement) => items(container).map((li) => li.dataset.taskId);

describe('History', () => {
  it("lists the screen's features newest first with what each was made from, engine, status, charge, player and a named download", async () => {
    const common = await speak('first words');
    const pro = await speak('second words', 'pro', 'en-gb-male-1');
    await converse();
    const { container } = render(<History features={SPEECH} screen="speech" />);
    await waitFor(() => expect(ids(container)).toEqual([pro, common]));
    const first = within(items(container)[0]!);
    expect(first.getByText('Speech · Pro')).toBeTruthy();
    expect(first.getByText('succeeded')).toBeTruthy();
    expect(first.getByText(/^1 credit ·/)).toBeTruthy();
    expect(first.getByTestId('history-summary').textContent).toBe('second words · Oliver (en-GB)');
    expect(first.getByLabelText('Speech · Pro result').tagName).toBe('AUDIO');
    const download = first.getByRole('link', { name: 'Download' });
    expect(download.getAttribute('download')).toMatch(/^tts-pro-\d{4}-\d\d-\d\d-\d{4}\.wav$/);
    expect(download.getAttribute('href')).toContain(`&download=${download.getAttribute('download')}`);
    expect(download.getAttribute('download')).not.toContain(pro);
    // The screen's features are filtered on the server.
    expect(page.net.bodiesTo(LIST)).toEqual([{ page: 1, pageSize: TASK_LIMITS.defaultPageSize, features: SPEECH }]);
  });

  it('filters by one feature or all, and searches on the server', async () => {
    const common = await speak('the cat sat');
    const pro = await speak('a dog barked', 'pro');
    const dialogue = await converse();
    const { container } = render(<History features={SPEECH} screen="speech" />);
    await waitFor(() => expect(ids(container)).toEqual([pro, common]));
    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'tts-common' } });
    await waitFor(() => expect(ids(container)).toEqual([common]));
    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'all' } });
    await waitFor(() => expect(ids(container)).toEqual([dialogue, pro, common]));
    fireEvent.change(screen.getByLabelText('Search history'), { target: { value: 'DOG' } });
    await waitFor(() => expect(ids(container)).toEqual([pro]));
    expect(page.net.bodiesTo(LIST).at(-1)).toEqual({ page: 1, pageSize: TASK_LIMITS.defaultPageSize, q: 'DOG' });
    fireEvent.change(screen.getByLabelText('Search history'), { target: { value: 'nothing like it' } });
    expect(await screen.findByText('Nothing matches.')).toBeTruthy();
  });

  it('shows a failed task with its error and no player', async () => {
    const failed = await converse();
    const { container } = render(<History features={['dialogue']} screen="dialogue" />);
    await waitFor(() => expect(ids(container)).toEqual([failed]));
    const item = within(items(container)[0]!);
    expect(item.getByText('failed')).toBeTruthy();
    expect(item.getByText(/^0 credits ·/)).toBeTruthy();
    expect(item.getByText(/No voices today/)).toBeTruthy();
    expect(items(container)[0]!.querySelector('audio')).toBeNull();
    expect(item.queryByRole('button', { name: 'Share' })).toBeNull();
  });

  it('hides a deleted item at once with Undo; Undo keeps it, otherwise the server deletes it after the undo time', async () => {
    const keep = await speak('keep me');
    const drop = await speak('drop me');
    const { container } = render(<History features={SPEECH} screen="speech" />);
    await waitFor(() => expect(ids(container)).toEqual([drop, keep]));
    fireEvent.click(within(items(container)[0]!).getByRole('button', { name: /^Delete Speech · Common from / }));
    expect(ids(container)).toEqual([keep]);
    fireEvent.click(within(screen.getByRole('status')).getByRole('button', { name: 'Undo' }));
    expect(ids(container)).toEqual([drop, keep]);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(within(items(container)[0]!).getByRole('button', { name: /^Delete Speech · Common from / }));
    expect(screen.getByRole('status').textContent).toContain('Deleted: Speech · Common');
    expect(page.net.bodiesTo('/api-playground/video_tools/v1/delete')).toEqual([]);
    act(() => vi.advanceTimersByTime(HISTORY.undoMs));
    vi.useRealTimers();
    await waitFor(() => expect(page.net.bodiesTo('/api-playground/video_tools/v1/delete')).toEqual([{ taskId: drop }]));
    await waitFor(async () =>
      expect(await page.t.database.db.selectFrom('tasks').select('id').where('id', '=', drop).execute()).toEqual([]),
    );
    expect(ids(container)).toEqual([keep]);
  });

  it('asks before a paid re-run, names its price, runs it with the same inputs, follows it and updates the balance', async () => {
    const first = await speak('once more', 'pro');
    const { container } = render(<History features={SPEECH} screen="speech" />);
    await waitFor(() => expect(ids(container)).toEqual([first]));
    const item = items(container)[0]!;
    const held = (
      await page.t.database.db
        .selectFrom('tasks')
        .select('credits_held')
        .where('id', '=', first)
        .executeTakeFirstOrThrow()
    ).credits_held;
    expect(held).toBeGreaterThan(0);
    fireEvent.click(within(item).getByRole('button', { name: 'Run again…' }));
    const ask = within(item).getByRole('group', { name: 'Run Speech · Pro again?' });
    expect(ask.textContent).toContain(`Run it again for ${held} credit${held === 1 ? '' : 's'}?`);
    // The one paid-action question Try it asks too, its confirm focused.
    expect(ask.dataset.testid).toBe('paid-confirm');
    expect(document.activeElement).toBe(within(ask).getByRole('button', { name: 'Yes, run again' }));
    // Cancel runs nothing.
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(page.net.bodiesTo('/api-playground/video_tools/v1/rerun')).toEqual([]);
    fireEvent.click(within(item).getByRole('button', { name: 'Run again…' }));
    const before = (await refreshUser())!.userPoints;
    fireEvent.click(within(item).getByRole('button', { name: 'Yes, run again' }));
    await waitFor(() => expect(ids(container)).toHaveLength(2));
    // The hold shows in the balance without a reload.
    await waitFor(() => expect($user.get()!.userPoints).toBe(before - held));
    const again = ids(container)[0]!;
    expect(again).not.toBe(first);
    expect(page.net.bodiesTo('/api-playground/video_tools/v1/rerun')).toEqual([{ taskId: first }]);
    await waitFor(() => expect(items(container)[0]!.dataset.status).toBe('succeeded'), { timeout: 5000 });
    expect(within(items(container)[0]!).getByTestId('history-summary').textContent).toBe('once more · Ava (en-US)');
  });

  it('opens the task named by ?task= first and highlighted, even when it is older than the newest page', async () => {
    const old = await speak('the old one');
    for (let i = 0; i < TASK_LIMITS.defaultPageSize; i++) await speak(`newer ${i}`);
    history.replaceState(null, '', `/playground/speech?task=${old}`);
    const { container } = render(<History features={SPEECH} screen="speech" />);
    await waitFor(() => expect(ids(container)[0]).toBe(old));
    expect(items(container)).toHaveLength(TASK_LIMITS.defaultPageSize + 1);
    expect(items(container)[0]!.className).toMatch(/highlighted/);
    await waitFor(() => expect(document.activeElement).toBe(items(container)[0]));
  });

  it('says so when there is nothing yet, and reloads on Refresh and when a task is created or finishes elsewhere', async () => {
    const { container } = render(<History features={SPEECH} screen="speech" />);
    await screen.findByText('Nothing yet. Your results appear here for 7 days.');
    const first = await speak('made after the list loaded');
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(ids(container)).toEqual([first]));
    const second = await speak('and another');
    act(() => bumpHistory());
    await waitFor(() => expect(ids(container)).toEqual([second, first]));
  });

  it('says what went wrong when the list cannot load, and Refresh tries again', async () => {
    await speak('waiting for the network');
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    const { container } = render(<History features={SPEECH} screen="speech" />);
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to fetch. Use Refresh to try again.');
    routeBrowserTo(page.t.app);
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(items(container)).toHaveLength(1));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows nothing to a guest and asks the server nothing', async () => {
    $user.set(null);
    // Signing the page in asked /user/info; from here on nothing is asked.
    const asked = page.net.sent.length;
    const { container } = render(<History features={SPEECH} screen="speech" />);
    await act(() => Promise.resolve());
    expect(container.innerHTML).toBe('');
    expect(page.net.sent.slice(asked)).toEqual([]);
  });
});
