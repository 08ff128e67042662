// Voice cloning on the real server: what to fix before submitting, the clone request, and the named clone in the speech
// voice picker.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testEngine, testApps } from '../../../server/test-support/task-apps';
import { waitForTask } from '../../../server/test-support/tasks';
import { silentWav } from '../../../server/test-support/wav';
import { signedInPageEachTest } from '../shared/page.fixtures';
import type { UploadedMedia } from './api';
import { writeDraft } from './draft';
import { speechCost } from './pricing';
import SpeechScreen from './SpeechScreen';
import VoiceCloneScreen from './VoiceCloneScreen';

const CLONE = '/api-playground/speech/v1/voice_clone';

const openApp = testApps();
// Cloning answers a clone id; speech with a cloned voice runs on another test engine.
const page = signedInPageEachTest(50, () =>
  openApp({
    engines: [
      testEngine({ name: 'cloner', features: ['voice-clone'], cloneId: 'clone-abc' }),
      testEngine({ name: 'speaker', features: ['tts-clone'] }),
    ],
    env: { ENGINES: 'voice-clone=cloner,tts-clone=speaker' },
    start: 'queue',
  }),
);

const flush = () => act(() => Promise.resolve());

/** A voice sample uploaded as the user, the way DropZone or the recorder leaves it in the draft. */
async function uploadSample(): Promise<UploadedMedia> {
  const form = new FormData();
  form.append('scene', 'audio');
  form.append('file', new Blob([silentWav(3, 16_000)], { type: 'audio/wav' }), 'sample.wav');
  const res = await page.t.app.request('/api-playground/file/v1/upload', {
    method: 'POST',
    headers: { token: page.user.token },
    body: form,
  });
  return ((await res.json()) as { data: UploadedMedia }).data;
}

async function renderClone(draft: { sample?: UploadedMedia | null; name?: string; consent?: boolean }) {
  writeDraft('voiceClone', { sample: null, name: '', consent: false, ...draft });
  render(<VoiceCloneScreen />);
  await flush();
}

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Clone voice' }));

describe('VoiceCloneScreen', () => {
  it('asks for the sample, then a name, then consent, and sends nothing until all are there', async () => {
    const sample = await uploadSample();
    await renderClone({});
    submit();
    expect(screen.getByRole('alert').textContent).toBe('Sample: upload or record the voice to clone.');
    cleanup();
    await renderClone({ sample, name: '   ' });
    submit();
    expect(screen.getByRole('alert').textContent).toBe(
      'Name: give the voice a name you will recognise in the voice picker.',
    );
    cleanup();
    await renderClone({ sample, name: 'Narrator' });
    submit();
    expect(screen.getByRole('alert').textContent).toBe(
      'Consent: confirm that this is your voice or that you have permission to clone it.',
    );
    expect(page.net.bodiesTo(CLONE)).toEqual([]);
  });

  it('clones the uploaded sample for free, remembers the name, and the speech picker then offers and uses the clone', async () => {
    const sample = await uploadSample();
    await renderClone({ sample });
    expect(screen.getByTestId('cost').textContent).toBe('0');
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: '  My narrator ' } });
    fireEvent.click(screen.getByRole('checkbox'));
    submit();
    await waitFor(() => expect(page.net.bodiesTo(CLONE)).toEqual([{ voiceUrl: sample.url }]));
    expect(
      await screen.findByText('Voice ready. It now appears in the voice pickers.', {}, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Text to Speech' }).getAttribute('href')).toBe('/playground/speech');
    const [row] = await page.t.database.db
      .selectFrom('tasks')
      .select('id')
      .where('feature', '=', 'voice-clone')
      .execute();
    expect(JSON.parse(localStorage.getItem('playgroundCloneNames')!)).toEqual({ [row!.id]: 'My narrator' });

    cleanup();
    render(<SpeechScreen />);
    const clone = await screen.findByRole('radio', { name: /My narrator/ });
    fireEvent.click(clone);
    expect(screen.getByRole('group', { name: 'Quality' })).toHaveProperty('disabled', true);
    const text = 'Read this in my own voice.';
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: text } });
    expect(screen.getByTestId('cost').textContent).toBe(String(speechCost(text, 'common', true)));
    fireEvent.click(screen.getByRole('button', { name: 'Generate speech' }));
    await waitFor(() =>
      expect(page.net.bodiesTo('/api-playground/speech/v1/tts_clone')).toEqual([{ cloneId: 'clone-abc', text }]),
    );
  });

  it('lists a clone named on another device as "My voice N"', async () => {
    const sample = await uploadSample();
    const res = await page.t.app.request(CLONE, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: page.user.token },
      body: JSON.stringify({ voiceUrl: sample.url }),
    });
    await waitForTask(page.t, ((await res.json()) as { data: { taskId: string } }).data.taskId);
    render(<SpeechScreen />);
    const picker = within(screen.getByRole('radiogroup', { name: 'Voices' }));
    expect(await picker.findByRole('radio', { name: /My voice 1/ })).toBeTruthy();
  });
});
