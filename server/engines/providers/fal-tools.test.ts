// fal.ai adapter contract for image and video tools against a local fake of fal's queue API: uploads to fal storage,
// model fields, per-image and per-second charges.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createUser, waitForTask } from '../../test-support/tasks';
import { submitTool, uploadMedia } from '../../test-support/customer-calls';
import { taskMedia } from '../../test-support/task-outcomes';
import { expectCharged } from '../../test-support/ledger';
import { listPrice } from '../../../src/lib/product-rules';
import { FAL_IMAGE_SIZES, FAL_MODELS } from '../../../src/lib/product-rules';
import { probeMedia } from '../../media/probe';
import type { EngineContext } from '../types';
import { falLipSync } from './fal';
import { useFalFake } from './fal.fixtures';
import { memoryProviderJobs } from '../../test-support/provider-jobs';

const fal = useFalFake();
const {
  media: { clip, longClip, voice, picture, mask },
  app,
  falConfig,
  submitted,
  uploaded,
} = fal;

describe('fal.ai image and video tools', () => {
  it('image generation asks FLUX for count images at the mapped image_size, stores every image and charges per image', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(
      t,
      await submitTool(t, user.apiKey, 'image_generation', {
        prompt: 'a lighthouse at dusk',
        count: 2,
        aspectRatio: '16:9',
        seed: 5,
      }),
    );
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(submitted(FAL_MODELS.imageGeneration)).toEqual({
      prompt: 'a lighthouse at dusk',
      num_images: 2,
      image_size: FAL_IMAGE_SIZES['16:9'],
      seed: 5,
    });
    const media = await taskMedia(t, task.id);
    expect(media).toHaveLength(2);
    expect(media.every((m) => m.kind === 'image' && m.mime === 'image/png')).toBe(true);
    const perImage = listPrice('image-generation', { count: 1 }).credits;
    expect(task.credits_charged).toBe(2 * perImage);
    await expectCharged(t, user, 2 * perImage);
  });

  it('image generation is charged only for the images fal returned when it makes fewer than asked', async () => {
    fal.fake.mode = 'one-image';
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(
      t,
      await submitTool(t, user.apiKey, 'image_generation', { prompt: 'a lighthouse at dusk', count: 2 }),
    );
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(submitted(FAL_MODELS.imageGeneration)).toMatchObject({ num_images: 2, image_size: FAL_IMAGE_SIZES['1:1'] });
    expect(await taskMedia(t, task.id)).toHaveLength(1);
    const perImage = listPrice('image-generation', { count: 1 }).credits;
    expect(task.credits_charged).toBe(perImage);
    await expectCharged(t, user, perImage);
  });

  const imageTools = [
    {
      tool: 'erase',
      feature: 'erase',
      model: FAL_MODELS.erase,
      inputs: { imageUrl: picture, maskUrl: mask },
      fields: { image_url: picture, mask_url: mask },
    },
    {
      tool: 'face_swap',
      feature: 'face-swap',
      model: FAL_MODELS.faceSwap,
      inputs: { imageUrl: picture, faceImageUrl: mask },
      fields: { target_image_url: picture, source_face_url: mask },
    },
    {
      tool: 'restore',
      feature: 'restore',
      model: FAL_MODELS.restore,
      inputs: { imageUrl: picture },
      fields: { image_url: picture },
    },
  ] as const;

  it.each(imageTools)(
    '$tool uploads our images to fal storage, sends each under its model field, stores the image and charges the flat price',
    async ({ tool, feature, model, inputs, fields }) => {
      const t = await app();
      const user = await createUser(t, 100);
      const body: Record<string, string> = {};
      for (const [name, file] of Object.entries(inputs)) body[name] = await uploadMedia(t, user, file);
      const task = await waitForTask(t, await submitTool(t, user.apiKey, tool, body));
      expect(task.status, task.error ?? '').toBe('succeeded');
      const sent = submitted(model);
      expect(Object.keys(sent).sort()).toEqual(Object.keys(fields).sort());
      for (const [field, file] of Object.entries(fields))
        expect(uploaded(sent[field]), field).toEqual(readFileSync(file));
      expect(fal.fake.uploads.size).toBe(Object.keys(inputs).length);
      const media = await taskMedia(t, task.id);
      expect(media).toHaveLength(1);
      expect(media[0]).toMatchObject({ kind: 'image', mime: 'image/png' });
      const price = listPrice(feature, {}).credits;
      expect(task.credits_charged).toBe(price);
      await expectCharged(t, user, price);
    },
  );

  it('video matting is settled per second of the video fal returned, not of the input', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(
      t,
      await submitTool(t, user.apiKey, 'video_matting', { videoUrl: await uploadMedia(t, user, clip) }),
    );
    expect(task.status, task.error ?? '').toBe('succeeded');
    const sent = submitted(FAL_MODELS.videoMatting);
    expect(uploaded(sent.video_url)).toEqual(readFileSync(clip));
    expect(sent.background_color).toEqual([0, 255, 0]);
    const media = await taskMedia(t, task.id);
    expect(media).toHaveLength(1);
    expect(media[0]).toMatchObject({ kind: 'video', mime: 'video/mp4', size: readFileSync(longClip).length });
    const outputS = (await probeMedia(readFileSync(longClip)))!.durationS!;
    expect(outputS).toBeGreaterThan((await probeMedia(readFileSync(clip)))!.durationS!);
    expect(task.credits_charged).toBe(listPrice('video-matting', { seconds: outputS }).credits);
    await expectCharged(t, user, task.credits_charged!);
  });
});

describe('falLipSync (dubbing with lip sync chains it)', () => {
  it('uploads the given video and audio bytes to fal storage, runs the lip-sync model on them and returns its video', async () => {
    const video = { data: readFileSync(clip), mime: 'video/mp4' };
    const audio = { data: readFileSync(voice), mime: 'audio/wav' };
    const ctx: EngineContext = {
      signal: new AbortController().signal,
      progress: async () => {},
      readInput: () => Promise.reject(new Error('lip sync from bytes reads no input URL')),
      taskId: 'dub-task-1',
      providerJobs: memoryProviderJobs(),
    };
    const out = await falLipSync(falConfig({ poll: { startMs: 10, factor: 1, maxMs: 10 } }))(video, audio, ctx);
    expect(fal.fake.uploads.size).toBe(2);
    const sent = submitted(FAL_MODELS.lipsync);
    expect(uploaded(sent.video_url)).toEqual(video.data);
    expect(uploaded(sent.audio_url)).toEqual(audio.data);
    expect(out).toMatchObject({ kind: 'video', mime: 'video/mp4' });
    expect(out.data).toEqual(readFileSync(clip));
    expect(out.durationS).toBe((await probeMedia(readFileSync(clip)))!.durationS);
  });
});
