// The speech screen on a server whose Common speech engine speaks English only (as DreamAPI): other voices are marked
// and not submitted.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTasksTestApp,
  createUser,
  type TasksTestApp,
  type TasksTestOptions,
} from '../../../server/test-support/tasks';
import { forgetFeatures } from '../../lib/site/features';
import { ENGINE_LABELS, VOICE_MESSAGES, voiceById } from '../../lib/product-rules';
import { resetPage, signInPage } from '../shared/page.fixtures';
import { writeDraft } from './draft';
import SpeechScreen from './SpeechScreen';

/** An engine named as DreamAPI that speaks English only; it is never run here. */
const englishOnly: NonNullable<TasksTestOptions['engines']>[number] = {
  name: 'dreamapi',
  features: ['tts-common'],
  languages: { 'tts-common': ['en'] },
  run: () => Promise.reject(new Error('not run in this test')),
};

let t: TasksTestApp;
beforeEach(async () => {
  forgetFeatures();
  t = await createTasksTestApp({ env: { ENGINES: 'tts-common=dreamapi' }, engines: [englishOnly] });
  await signInPage(t, await createUser(t, 100));
});
afterEach(async () => {
  await resetPage(t);
  forgetFeatures();
});

describe('voices the serving engine does not speak', () => {
  it('are disabled and say they are not available on that engine', async () => {
    render(<SpeechScreen />);
    await act(() => Promise.resolve());
    const hint = VOICE_MESSAGES.pickerHint(ENGINE_LABELS.dreamapi);
    const french = () => screen.getByRole('radio', { name: /Chloé/ });
    await waitFor(() => expect(french()).toHaveProperty('disabled', true));
    expect(screen.getByRole('radio', { name: /Ava/ })).toHaveProperty('disabled', false);
    // Every non-English voice carries the note; the English ones do not.
    expect(screen.getAllByText(hint)).toHaveLength(10);
  });

  it('a saved draft in a voice the engine does not speak is refused at submit with why, and nothing is sent', async () => {
    writeDraft('speech', { text: 'Bonjour', voice: 'fr-female-1', quality: 'common', settings: {} });
    render(<SpeechScreen />);
    await waitFor(() => expect(screen.getByRole('radio', { name: /Chloé/ })).toHaveProperty('disabled', true));
    fireEvent.click(screen.getByRole('button', { name: 'Generate speech' }));
    expect(
      await screen.findByText(VOICE_MESSAGES.pickProblem(voiceById('fr-female-1')!, ENGINE_LABELS.dreamapi, ['en'])),
    ).toBeTruthy();
    expect(await t.database.db.selectFrom('tasks').select('id').execute()).toHaveLength(0);
  });

  it('the playground problem names the voice, its language and the languages that are available', () => {
    expect(VOICE_MESSAGES.pickProblem(voiceById('fr-female-1')!, 'DreamAPI', ['en'])).toBe(
      'Chloé speaks French, which is not available on DreamAPI here. Choose a voice in English.',
    );
  });
});
