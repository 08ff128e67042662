// Advanced settings on the real server: shown only as the serving engine honours them, sent with the run, stored on the
// task, and in the View code call; a setting the engine does not honour is neither shown nor sent, even from an old
// draft.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RoutedBrowser } from '../../../server/test-support/browser';
import { createTasksTestApp, createUser, testEngine, type TasksTestApp } from '../../../server/test-support/tasks';
import { forgetFeatures, loadFeatures } from '../../lib/site/features';
import { writeDraft } from './draft';
import { resetPage, signInPage } from '../shared/page.fixtures';
import SpeechScreen from './SpeechScreen';
import VideoScreen from './VideoScreen';

let t: TasksTestApp | undefined;
afterEach(async () => {
  if (t) await resetPage(t);
  t = undefined;
});

async function start(env: Record<string, string> = {}, engines = [testEngine()]): Promise<RoutedBrowser> {
  t = await createTasksTestApp({ env, engines });
  forgetFeatures();
  return signInPage(t, await createUser(t, 1000));
}

const flush = () => act(() => Promise.resolve());
const storedInput = async () => {
  await waitFor(async () => expect(await t!.database.db.selectFrom('tasks').select('id').execute()).toHaveLength(1));
  return JSON.parse(
    (await t!.database.db.selectFrom('tasks').select('input').executeTakeFirstOrThrow()).input,
  ) as Record<string, unknown>;
};

describe('advanced settings', () => {
  it('text to video on the preview engine offers aspect ratio and seed (not a negative prompt), and the run carries them', async () => {
    const net = await start();
    render(<VideoScreen type="text" />);
    await flush();
    fireEvent.change(screen.getByLabelText('Prompt'), { target: { value: 'A harbour at night' } });
    await screen.findByTestId('advanced-settings');
    expect(screen.getByRole('radio', { name: '9:16' })).toBeTruthy();
    expect(screen.queryByLabelText('Negative prompt')).toBeNull();
    expect(screen.queryByLabelText(/^Speed/)).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: '9:16' }));
    fireEvent.change(screen.getByLabelText('Seed'), { target: { value: '42' } });

    fireEvent.click(screen.getByRole('button', { name: 'View code' }));
    await screen.findByTestId('code-panel', {}, { timeout: 10_000 });
    expect(screen.getByTestId('run-code').textContent).toContain(`"aspectRatio":"9:16","seed":42`);

    fireEvent.click(screen.getByRole('button', { name: 'Generate video' }));
    await waitFor(() => expect(net.bodiesTo('/api-playground/video_tools/v1/animate_video')).toHaveLength(1));
    expect(net.bodiesTo('/api-playground/video_tools/v1/animate_video')[0]).toMatchObject({
      prompt: 'A harbour at night',
      aspectRatio: '9:16',
      seed: 42,
    });
    expect(await storedInput()).toMatchObject({ aspectRatio: '9:16', seed: 42 });
  });

  it("holds its place before the features answer; opened early, it opens with the engine's settings", async () => {
    await start();
    render(<VideoScreen type="text" />);
    // In the first render (and the pre-rendered HTML) the closed disclosure stands where the settings will be.
    const pending = screen.getByTestId('advanced-settings-pending') as HTMLDetailsElement;
    expect(pending.textContent).toContain('Advanced settings');
    pending.open = true;
    fireEvent(pending, new Event('toggle'));
    const form = (await screen.findByTestId('advanced-settings')) as HTMLDetailsElement;
    expect(screen.queryByTestId('advanced-settings-pending')).toBeNull();
    expect(form.open).toBe(true);
    expect(screen.getByRole('radio', { name: '9:16' })).toBeTruthy();
  });

  it('speech on eSpeak offers speed and pitch; Reset goes back to the engine defaults', async () => {
    const net = await start();
    render(<SpeechScreen />);
    await flush();
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'Higher, please' } });
    const pitch = await screen.findByLabelText(/^Pitch: 50 \(default\)/);
    fireEvent.change(pitch, { target: { value: '80' } });
    expect(screen.getByLabelText(/^Pitch: 80$/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Generate speech' }));
    await waitFor(() =>
      expect(net.bodiesTo('/api-playground/speech/v1/tts')).toEqual([
        { text: 'Higher, please', voiceId: 'en-us-female-1', quality: 'common', pitch: 80 },
      ]),
    );
    expect(await storedInput()).toMatchObject({ pitch: 80 });
    fireEvent.click(screen.getByRole('button', { name: 'Reset to defaults' }));
    expect(screen.getByLabelText(/^Pitch: 50 \(default\)/)).toBeTruthy();
  });

  it('shows nothing for an engine that honours no setting, and sends none from an old draft', async () => {
    const net = await start({ ENGINES: 'tts-common=test' });
    writeDraft('speech', {
      text: 'Plain words',
      voice: 'en-us-male-1',
      quality: 'common',
      settings: { pitch: 20, speed: 300 },
    });
    render(<SpeechScreen />);
    await flush();
    await waitFor(() => expect((screen.getByLabelText('Text') as HTMLTextAreaElement).value).toBe('Plain words'));
    // The features answer has arrived (and said this engine honours nothing) before concluding nothing is offered.
    expect((await act(() => loadFeatures())).get('tts-common')).toMatchObject({ engine: 'test', options: [] });
    expect(screen.queryByText('Advanced settings')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Generate speech' }));
    await waitFor(() =>
      expect(net.bodiesTo('/api-playground/speech/v1/tts')).toEqual([
        { text: 'Plain words', voiceId: 'en-us-male-1', quality: 'common' },
      ]),
    );
  });
});
