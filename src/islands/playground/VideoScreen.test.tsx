// The five video pages on the real server: what each asks to fix, the request each sends, and a preview equal to the
// server's hold.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// Renamed: the React hooks rule would take a vitest helper whose name starts with `use` for a hook.
import { stillImage, useTestMedia as makeTestMedia, videoClip } from '../../../server/test-support/lavfi-media';
import { createTasksTestApp, testEngine, uploadAs } from '../../../server/test-support/tasks';
import { silentWav } from '../../../server/test-support/wav';
import { SAMPLE_MODELS } from '../../lib/product-rules';
import type { VideoType } from '../../lib/site/products';
import { signedInPageEachTest } from '../shared/page.fixtures';
import type { UploadedMedia } from './api';
import { writeDraft } from './draft';
import { costOf } from './pricing';
import VideoScreen, { videoFeature } from './VideoScreen';

const files = makeTestMedia('video-screen-', { clip: videoClip('clip.mp4', 3), portrait: stillImage('portrait.png') });

// Translation has no offline engine, so a test engine serves it. The queue is not started: submitted tasks stay
// queued, which is all these tests need.
const page = signedInPageEachTest(10_000, () =>
  createTasksTestApp({
    engines: [testEngine({ name: 'dub', features: ['video-translate-lip-sync', 'video-translate-voice-only'] })],
    env: { ENGINES: 'video-translate-lip-sync=dub,video-translate-voice-only=dub' },
  }),
);

const flush = () => act(() => Promise.resolve());
const uploadImage = () => uploadAs(page.t, page.user, readFileSync(files.portrait), 'portrait.png', 'image/png');
const uploadVideo = () => uploadAs(page.t, page.user, readFileSync(files.clip), 'clip.mp4', 'video/mp4');
const uploadAudio = () => uploadAs(page.t, page.user, silentWav(4, 16_000), 'speech.wav', 'audio/wav');

async function open(type: VideoType, draft: Record<string, unknown> = {}) {
  if (Object.keys(draft).length) writeDraft(`video-${type}`, draft);
  render(<VideoScreen type={type} />);
  await flush();
}

const generate = () => fireEvent.click(screen.getByRole('button', { name: 'Generate video' }));
const problem = () => screen.getByRole('alert').textContent;

/** The one task the server stored: its feature and the credits it held. */
async function stored() {
  await waitFor(async () =>
    expect(await page.t.database.db.selectFrom('tasks').select('id').execute()).toHaveLength(1),
  );
  return page.t.database.db.selectFrom('tasks').select(['feature', 'credits_held']).executeTakeFirstOrThrow();
}

describe('videoFeature', () => {
  it('maps each page and choice to the feature it runs', () => {
    const d = { drive: 'script', lipSync: true } as const;
    expect(videoFeature('image', d)).toBe('image-to-video');
    expect(videoFeature('text', d)).toBe('text-to-video');
    expect(videoFeature('character', d)).toBe('character-to-video');
    expect(videoFeature('character', { ...d, drive: 'audio' })).toBe('talking-image');
    expect(videoFeature('translate', d)).toBe('video-translate-lip-sync');
    expect(videoFeature('translate', { ...d, lipSync: false })).toBe('video-translate-voice-only');
    expect(videoFeature('lipSync', d)).toBe('talking-face');
  });
});

describe('text to video', () => {
  it('asks for a prompt', async () => {
    await open('text');
    generate();
    expect(problem()).toBe('Prompt: describe what should happen in the video.');
    expect(page.net.sent.filter((r) => r.path.includes('animate_video'))).toEqual([]);
  });

  it('sends the trimmed prompt with the chosen length and resolution; the server holds the previewed price', async () => {
    await open('text');
    fireEvent.change(screen.getByLabelText('Prompt'), { target: { value: '  a paper boat on a rainy street  ' } });
    fireEvent.click(screen.getByRole('radio', { name: /8s · 720p/ }));
    const cost = Number(screen.getByTestId('cost').textContent);
    generate();
    await waitFor(() =>
      expect(page.net.bodiesTo('/api-playground/video_tools/v1/animate_video')).toEqual([
        { type: 'text', prompt: 'a paper boat on a rainy street', resolution: '720p', duration: 8 },
      ]),
    );
    expect(await stored()).toEqual({ feature: 'text-to-video', credits_held: cost });
  });
});

describe('image to video', () => {
  it('asks for the picture', async () => {
    await open('image', { prompt: 'slow zoom in' });
    generate();
    expect(problem()).toBe('Image: upload the picture to animate.');
  });

  it('sends the uploaded picture with the prompt and the default 4 s at 720p', async () => {
    const image = await uploadImage();
    await open('image', { prompt: 'slow zoom in', image });
    generate();
    await waitFor(() =>
      expect(page.net.bodiesTo('/api-playground/video_tools/v1/animate_video')).toEqual([
        { type: 'image', prompt: 'slow zoom in', resolution: '720p', duration: 4, imageUrl: image.url },
      ]),
    );
    expect(await stored()).toEqual({
      feature: 'image-to-video',
      credits_held: costOf('image-to-video', { resolution: '720p', durationS: 4 }),
    });
  });
});

describe('character to video', () => {
  it('asks for the script in its own words', async () => {
    await open('character');
    generate();
    expect(problem()).toBe('Prompt: write what the character says or does.');
  });

  it('animates a chosen sample model with the script', async () => {
    await open('character');
    fireEvent.click(screen.getByRole('radio', { name: SAMPLE_MODELS[1].name }));
    fireEvent.change(screen.getByLabelText('Script'), { target: { value: 'Welcome to the show!' } });
    generate();
    await waitFor(() =>
      expect(page.net.bodiesTo('/api-playground/video_tools/v1/animate_video')).toEqual([
        {
          type: 'character',
          prompt: 'Welcome to the show!',
          resolution: '720p',
          duration: 4,
          modelId: SAMPLE_MODELS[1].id,
        },
      ]),
    );
    expect((await stored()).feature).toBe('character-to-video');
  });

  it('driven by audio: asks for it, then makes a talking image priced on its length', async () => {
    await open('character', { drive: 'audio' });
    expect(screen.getByTestId('cost').textContent).toBe('—');
    generate();
    expect(problem()).toBe('Audio: upload the speech to sync to.');
    cleanup();
    const audio = await uploadAudio();
    const portrait = await uploadImage();
    await open('character', { drive: 'audio', audio, image: portrait });
    const cost = costOf('talking-image', { seconds: audio.durationS! });
    expect(screen.getByTestId('cost').textContent).toBe(String(cost));
    generate();
    await waitFor(() =>
      expect(page.net.bodiesTo('/api-playground/talking_face/v1/create_task')).toEqual([
        { audioUrl: audio.url, imageUrl: portrait.url },
      ]),
    );
    expect(await stored()).toEqual({ feature: 'talking-image', credits_held: cost });
  });
});

describe('video translation', () => {
  it('asks for the video, and for a target other than the source', async () => {
    await open('translate');
    generate();
    expect(problem()).toBe('Video: upload the video first.');
    cleanup();
    await open('translate', { video: await uploadVideo(), source: 'es', target: 'es' });
    generate();
    expect(problem()).toBe('Choose a target language different from the source.');
  });

  it('sends voice-only or lip-sync translation of the video to the chosen language, priced on its length', async () => {
    const video: UploadedMedia = await uploadVideo();
    await open('translate', { video });
    fireEvent.change(screen.getByRole('combobox', { name: /^To/ }), { target: { value: 'fr' } });
    fireEvent.click(screen.getByRole('radio', { name: /Voice only/ }));
    const cost = costOf('video-translate-voice-only', { seconds: video.durationS! });
    expect(screen.getByTestId('cost').textContent).toBe(String(cost));
    generate();
    await waitFor(() =>
      expect(page.net.bodiesTo('/api-playground/did_video_task/v1/translate_submit')).toEqual([
        { videoUrl: video.url, targetLanguage: 'fr' },
      ]),
    );
    expect(await stored()).toEqual({ feature: 'video-translate-voice-only', credits_held: cost });
    expect(page.net.bodiesTo('/api-playground/did_video_task/v1/translate_lip_submit')).toEqual([]);
  });

  it('names the source language when one is chosen, and lip sync by default', async () => {
    const video = await uploadVideo();
    await open('translate', { video });
    fireEvent.change(screen.getByRole('combobox', { name: /^From/ }), { target: { value: 'en-US' } });
    generate();
    await waitFor(() =>
      expect(page.net.bodiesTo('/api-playground/did_video_task/v1/translate_lip_submit')).toEqual([
        { videoUrl: video.url, targetLanguage: 'es', sourceLanguage: 'en-US' },
      ]),
    );
  });
});

describe('lip sync', () => {
  it('asks for the audio once the video is there, then syncs the two', async () => {
    const video = await uploadVideo();
    await open('lipSync', { video });
    generate();
    expect(problem()).toBe('Audio: upload the speech to sync to.');
    cleanup();
    const audio = await uploadAudio();
    await open('lipSync', { video, audio });
    const cost = costOf('talking-face', { seconds: audio.durationS! });
    expect(screen.getByTestId('cost').textContent).toBe(String(cost));
    generate();
    await waitFor(() =>
      expect(page.net.bodiesTo('/api-playground/talking_face/v1/create_task')).toEqual([
        { audioUrl: audio.url, videoUrl: video.url },
      ]),
    );
    expect(await stored()).toEqual({ feature: 'talking-face', credits_held: cost });
  });
});
