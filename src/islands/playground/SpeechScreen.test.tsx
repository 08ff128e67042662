// The speech screen on the real server: a feature without an engine disables the submit and says so; voices filter and
// preview.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTasksTestApp, createUser, type TasksTestApp } from '../../../server/test-support/tasks';
import { ENGINE_LABELS, FEATURE_MESSAGES, VOICES, type Feature } from '../../lib/product-rules';
import type { FeatureState } from '../../lib/api/types';
import { resetPage, signInPage } from '../shared/page.fixtures';
import SpeechScreen from './SpeechScreen';
import { unavailableText } from './useFeatures';
import { previewUrl } from './voice-preview';

let t: TasksTestApp;

beforeEach(async () => {
  // This server has no engine for Pro speech (ENGINES switches it off); Common runs on the offline engine.
  t = await createTasksTestApp({ env: { ENGINES: 'tts-pro=' } });
  await signInPage(t, await createUser(t, 100));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await resetPage(t);
});

const flush = () => act(() => Promise.resolve());
/** One entry of the features answer. */
const state = (feature: Feature, available: boolean): FeatureState => ({
  feature,
  available,
  engine: available ? 'espeak' : null,
  engineLabel: available ? ENGINE_LABELS.espeak : null,
  usesModel: false,
  noModelPrice: 'full',
  priceNote: '',
});
const submitButton = () => screen.getByRole('button', { name: 'Generate speech' });

describe('feature availability', () => {
  it('disables the submit and says the chosen quality is not available here, naming no server setting', async () => {
    render(<SpeechScreen />);
    await flush();
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'Hello' } });
    expect(submitButton()).toHaveProperty('disabled', false);
    fireEvent.click(screen.getByRole('radio', { name: 'Pro' }));
    await waitFor(() => expect(submitButton()).toHaveProperty('disabled', true));
    const message = unavailableText(new Map([['tts-pro', state('tts-pro', false)]]), 'tts-pro', 'Speech')!;
    expect(message).toBe(FEATURE_MESSAGES.optionUnavailable('Speech'));
    expect(message).not.toMatch(/ENGINES|configur/);
    expect(screen.getByText(message)).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Common' }));
    expect(submitButton()).toHaveProperty('disabled', false);
    expect(screen.queryByText(message)).toBeNull();
  });

  it('says nothing while availability is unknown or the feature can run', () => {
    expect(unavailableText(null, 'tts-pro', 'Speech')).toBeNull();
    expect(unavailableText(new Map(), 'tts-pro', 'Speech')).toBeNull();
    expect(unavailableText(new Map([['tts-pro', state('tts-pro', true)]]), 'tts-pro', 'Speech')).toBeNull();
  });
});

describe('voice picker', () => {
  it('filters the voices by language', async () => {
    render(<SpeechScreen />);
    await flush();
    const voices = within(screen.getByRole('radiogroup', { name: 'Voices' }));
    expect(voices.getAllByRole('radio')).toHaveLength(VOICES.length);
    fireEvent.change(screen.getByRole('combobox', { name: /Language/ }), { target: { value: 'es' } });
    const spanish = VOICES.filter((v) => v.language === 'es');
    expect(voices.getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual(spanish.map((v) => v.id));
  });

  it("plays a voice's sample from the server, one at a time", async () => {
    const played: HTMLMediaElement[] = [];
    const play = HTMLMediaElement.prototype.play;
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
      played.push(this);
      return play.call(this);
    });
    render(<SpeechScreen />);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Preview Ava' }));
    fireEvent.click(screen.getByRole('button', { name: 'Preview Noah' }));
    await waitFor(() => expect(played).toHaveLength(2));
    expect(played.map((a) => a.src)).toEqual(
      [previewUrl('en-us-female-1'), previewUrl('en-us-male-1')].map((u) => new URL(u, location.href).href),
    );
    expect(played[0]!.paused).toBe(true);
    expect(played[1]!.paused).toBe(false);
    expect(new URL(played[1]!.src).pathname).toBe('/voice-preview/en-us-male-1');
  });

  it('says so when the browser refuses to play the sample', async () => {
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockRejectedValue(
      new DOMException('play() failed', 'NotAllowedError'),
    );
    render(<SpeechScreen />);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Preview Ava' }));
    expect(await screen.findByText('The preview could not play. Check the sound output and try again.')).toBeTruthy();
  });
});
