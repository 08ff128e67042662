// Runs from submit to result on the real server: payload, progress with elapsed and remaining time, polling, result and
// balance, several runs at once up to the per-user limit, cancel, failure and retry, 402, 40001.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routeBrowserTo, type RoutedBrowser } from '../../../server/test-support/browser';
import { createTasksTestApp, createUser, testEngine, type TasksTestApp } from '../../../server/test-support/tasks';
import { LIVE_STATUS, RUN_MESSAGES, STORAGE_KEYS, TASK_LIMITS, TASK_MESSAGES } from '../../lib/product-rules';
import { $modal, resetModals } from '../../lib/stores/modals';
import { $user, refreshUser } from '../../lib/stores/signed-in';
import { speechCost } from './pricing';
import SpeechScreen from './SpeechScreen';
import { failureText } from './run-view';

const TTS = '/api-playground/speech/v1/tts';
const CANCEL = '/api-playground/video_tools/v1/cancel';
const START_CREDITS = 100;

let t: TasksTestApp | null = null;
let net: RoutedBrowser;
let release: () => void = () => undefined;

/** The real server with a test engine that reports 40 % and then waits until the test releases it. */
async function start(o: { credits?: number; fail?: string; queue?: boolean } = {}) {
  const gate = new Promise<void>((resolve) => (release = resolve));
  t = await createTasksTestApp({
    engines: [testEngine({ gate, progress: 40, fail: o.fail })],
    env: { ENGINES: 'tts-common=test,tts-pro=test' },
  });
  if (o.queue !== false) await t.system.queue.start();
  const user = await createUser(t, o.credits ?? START_CREDITS);
  net = routeBrowserTo(t.app);
  localStorage.setItem(STORAGE_KEYS.userToken, user.token);
  await refreshUser();
}

afterEach(async () => {
  cleanup();
  release();
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
  resetModals();
  $user.set(undefined);
  await t?.close();
  t = null;
});

const flush = () => act(() => Promise.resolve());
/** The newest run's card. */
const panel = () => within(screen.getAllByTestId('run-card')[0]!);

async function submitSpeech(text: string) {
  render(<SpeechScreen />);
  await flush();
  fireEvent.change(screen.getByLabelText('Text'), { target: { value: text } });
  fireEvent.click(screen.getByRole('button', { name: 'Generate speech' }));
}

describe('useTask through the speech screen', () => {
  it('sends the form, shows progress while running, then the result, its cost and the new balance', async () => {
    await start();
    render(<SpeechScreen />);
    await flush();
    const text = `  ${'Hello world. '.repeat(30)}  `;
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: text } });
    fireEvent.click(screen.getByRole('radio', { name: /Noah/ }));
    fireEvent.click(screen.getByRole('radio', { name: 'Pro' }));
    const cost = speechCost(text, 'pro');
    expect(screen.getByTestId('cost').textContent).toBe(String(cost));
    fireEvent.click(screen.getByRole('button', { name: 'Generate speech' }));

    // The form stays open while the run goes on.
    await waitFor(() =>
      expect(net.bodiesTo(TTS)).toEqual([{ text: text.trim(), voiceId: 'en-us-male-1', quality: 'pro' }]),
    );
    expect(screen.getByRole('button', { name: 'Generate speech' })).toHaveProperty('disabled', false);
    await waitFor(
      () => expect(panel().getByRole('progressbar', { name: 'Task progress' }).getAttribute('value')).toBe('40'),
      { timeout: 5000 },
    );
    expect(panel().getByText('Generating…')).toBeTruthy();
    expect(screen.getByTestId('runs-in-progress').textContent).toBe(
      RUN_MESSAGES.inProgress(1, TASK_LIMITS.perUserConcurrent),
    );
    // Elapsed counts up; at 40 % the time left is estimated from the pace so far.
    expect(panel().getByTestId('run-elapsed').textContent).toMatch(/^\d+ s$/);
    await waitFor(() => expect(panel().getByTestId('run-remaining').textContent).toMatch(/^about \d+ s left$/), {
      timeout: 5000,
    });

    release();
    const done = await panel().findByText(/^Done · /, {}, { timeout: 5000 });
    expect(done.textContent).toMatch(new RegExp(`^Done · ${cost} credits charged · took \\d+ s$`));
    const [row] = await t!.database.db.selectFrom('tasks').select(['id', 'feature']).execute();
    expect(row!.feature).toBe('tts-pro');
    const audio = panel().getByTestId('result-audio');
    expect(audio.getAttribute('src')).toMatch(/^http/);
    expect(panel().getByRole('link', { name: 'Download' }).getAttribute('download')).toMatch(
      /^tts-pro-\d{4}-\d\d-\d\d-\d{4}\.wav$/,
    );
    await waitFor(() => expect(screen.getByTestId('balance').textContent).toBe(String(START_CREDITS - cost)));
    // The history refreshes itself with the finished task.
    await waitFor(() =>
      expect(screen.getByTestId('history').querySelector(`[data-task-id="${row!.id}"]`)).not.toBeNull(),
    );
    expect(screen.getByRole('button', { name: 'Generate speech' })).toHaveProperty('disabled', false);
  });

  it('follows the run over the account status stream: progress and result arrive without a poll', async () => {
    await start();
    await submitSpeech('Pushed, not polled');
    await waitFor(
      () => expect(panel().getByRole('progressbar', { name: 'Task progress' }).getAttribute('value')).toBe('40'),
      { timeout: 5000 },
    );
    release();
    await waitFor(() => expect(screen.getAllByTestId('run-card')[0]!.dataset.phase).toBe('succeeded'), {
      timeout: 5000,
    });
    expect(net.sent.filter((r) => r.path.startsWith(LIVE_STATUS.playgroundPath))).not.toEqual([]);
    expect(net.sent.filter((r) => r.path === '/api-playground/video_tools/v1/poll')).toEqual([]);
  });

  it('runs two tasks at once, each in its own card, and both finish with their own result', async () => {
    await start();
    await submitSpeech('The first of two runs');
    await panel().findByText('Generating…', {}, { timeout: 5000 });
    fireEvent.change(screen.getByLabelText('Text'), {
      target: { value: 'The second run, started while the first goes on' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Generate speech' }));
    await waitFor(() => expect(screen.getAllByTestId('run-card')).toHaveLength(2));
    await waitFor(() =>
      expect(screen.getByTestId('runs-in-progress').textContent).toBe(
        RUN_MESSAGES.inProgress(2, TASK_LIMITS.perUserConcurrent),
      ),
    );
    expect(net.bodiesTo(TTS).map((b) => (b as { text: string }).text)).toEqual([
      'The first of two runs',
      'The second run, started while the first goes on',
    ]);
    release();
    await waitFor(
      () => expect(screen.getAllByTestId('run-card').map((c) => c.dataset.phase)).toEqual(['succeeded', 'succeeded']),
      { timeout: 8000 },
    );
    const cards = screen.getAllByTestId('run-card');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual(['Run 2', 'Run 1']);
    const ids = (await t!.database.db.selectFrom('tasks').select('id').orderBy('created_at').execute()).map(
      (r) => r.id,
    );
    expect(cards.map((c) => c.dataset.taskId).reverse()).toEqual(ids);
    for (const card of cards) expect(within(card).getByTestId('result-audio')).toBeTruthy();
    expect(screen.getByTestId('runs-in-progress').textContent).toBe(
      RUN_MESSAGES.inProgress(0, TASK_LIMITS.perUserConcurrent),
    );
    // A finished card can be closed; its task stays in the history.
    fireEvent.click(within(cards[1]!).getByRole('button', { name: 'Close run 1' }));
    expect(screen.getAllByTestId('run-card')).toHaveLength(1);
  });

  it('stops at the per-user limit of runs at once and says so, then allows another when one finishes', async () => {
    await start({ credits: 1000 });
    render(<SpeechScreen />);
    await flush();
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'One of many' } });
    const button = screen.getByRole('button', { name: 'Generate speech' });
    for (let i = 0; i < TASK_LIMITS.perUserConcurrent; i += 1) fireEvent.click(button);
    await waitFor(() => expect(screen.getAllByTestId('run-card')).toHaveLength(TASK_LIMITS.perUserConcurrent));
    await waitFor(() => expect(button).toHaveProperty('disabled', true));
    expect(screen.getByText(RUN_MESSAGES.atLimit(TASK_LIMITS.perUserConcurrent))).toBeTruthy();
    fireEvent.click(button);
    expect(screen.getAllByTestId('run-card')).toHaveLength(TASK_LIMITS.perUserConcurrent);
    await waitFor(() => expect(net.bodiesTo(TTS)).toHaveLength(TASK_LIMITS.perUserConcurrent));
    fireEvent.click(await panel().findByRole('button', { name: 'Cancel' }, { timeout: 3000 }));
    await waitFor(() => expect(button).toHaveProperty('disabled', false), { timeout: 5000 });
  });

  it('says it waits for a worker while the task is queued', async () => {
    await start({ queue: false });
    await submitSpeech('Queued words');
    expect(await panel().findByText('Waiting for a free worker…', {}, { timeout: 3000 })).toBeTruthy();
  });

  it('cancels the running task: the server is asked, the panel says refunded, and the balance is whole again', async () => {
    await start();
    await submitSpeech('Cancel me please');
    fireEvent.click(await panel().findByRole('button', { name: 'Cancel' }, { timeout: 3000 }));
    const [row] = await t!.database.db.selectFrom('tasks').select('id').execute();
    await waitFor(() => expect(net.bodiesTo(CANCEL)).toEqual([{ taskId: row!.id }]));
    const alert = await panel().findByRole('alert', {}, { timeout: 5000 });
    expect(alert.textContent).toContain('The task was canceled; credits were refunded. Submit again when ready.');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('balance').textContent).toBe(String(START_CREDITS)));
  });

  it('a canceled free run (it held nothing) is not said to be refunded', () => {
    expect(failureText({ status: 'canceled', creditsHeld: 0, error: null })).toBe(
      'The task was canceled. Submit again when ready.',
    );
    expect(failureText({ status: 'canceled', creditsHeld: 3, error: null })).toBe(
      'The task was canceled; credits were refunded. Submit again when ready.',
    );
  });

  it('shows why a task failed, and Retry submits the same request again', async () => {
    await start({ fail: 'Engine exploded' });
    await submitSpeech('Doomed words');
    release();
    const alert = await panel().findByRole('alert', {}, { timeout: 5000 });
    expect(alert.textContent).toContain('Engine exploded');
    expect(alert.textContent).toContain('. Check the inputs and try again.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(net.bodiesTo(TTS)).toHaveLength(2));
    expect(net.bodiesTo(TTS)[1]).toEqual(net.bodiesTo(TTS)[0]);
    expect(await t!.database.db.selectFrom('tasks').select('id').execute()).toHaveLength(2);
  });

  it('offers the top-up instead of Retry when the server answers 402', async () => {
    await start({ credits: 0 });
    await submitSpeech('No money for this');
    const alert = await panel().findByRole('alert');
    expect(alert.textContent).toContain(`${TASK_MESSAGES.insufficientCredits}. Top up, then submit again.`);
    expect(within(alert).getByRole('link', { name: 'Top up credits' }).getAttribute('href')).toBe(
      '/pricing#credit-packs',
    );
    expect(within(alert).queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('opens the login modal when the session has expired (40001), and shows no result', async () => {
    await start();
    localStorage.setItem(STORAGE_KEYS.userToken, 'expired-session');
    await submitSpeech('Who am I');
    await waitFor(() => expect($modal.get()).toBe('login'));
    expect(screen.queryByTestId('run-card')).toBeNull();
    expect($user.get()).toBeNull();
  });

  it('when the stream breaks, polls, and stops after repeated network failures and points to the history', async () => {
    await start();
    await submitSpeech('Network will drop');
    await panel().findByRole('button', { name: 'Cancel' }, { timeout: 3000 });
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    // The status stream breaks with the network; reconnecting fails too, so the run falls back to polling.
    t!.system.live.streams.close();
    const alert = await panel().findByRole('alert', {}, { timeout: 10_000 });
    expect(alert.textContent).toContain('Failed to fetch. The task keeps running; find it in the history below.');
  }, 15_000);
});
