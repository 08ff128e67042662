// Default routing: providers with a key serve what they can, ahead of the offline engine; ENGINES overrides per
// feature.
import { afterEach, describe, expect, it } from 'vitest';
import { createTasksTestApp, type TasksTestApp } from '../test-support/tasks';
import { routeFeatures } from './routing';
import type { Engine } from './types';

const engine = (name: string, features: Engine['features']): Engine => ({
  name,
  features,
  run: () => Promise.reject(new Error('unused')),
});

describe('routeFeatures', () => {
  const offline = { 'tts-common': ['espeak'], 'text-to-video': ['preview'] } as const;
  const fal = engine('fal', ['text-to-video', 'image-generation']);
  const eleven = engine('elevenlabs', ['tts-common']);

  it('puts every provider that serves a feature ahead of its offline engine, in registration order', () => {
    const routes = routeFeatures({ ...offline }, [], [fal, eleven]);
    expect(routes['text-to-video']).toEqual(['fal', 'preview']);
    expect(routes['tts-common']).toEqual(['elevenlabs', 'espeak']);
    expect(routes['image-generation']).toEqual(['fal']);
  });

  it('leaves features no provider serves on their offline engine and unserved features out', () => {
    const routes = routeFeatures({ ...offline }, [], []);
    expect(routes).toEqual({ 'tts-common': ['espeak'], 'text-to-video': ['preview'] });
  });

  it('keeps exactly what ENGINES says for the features it names, even switched off', () => {
    const routes = routeFeatures(
      { 'tts-common': ['espeak'], 'text-to-video': ['preview'] },
      ['text-to-video', 'image-generation'],
      [fal, eleven],
    );
    expect(routes['text-to-video']).toEqual(['preview']);
    expect(routes['image-generation']).toBeUndefined();
    expect(routes['tts-common']).toEqual(['elevenlabs', 'espeak']);
  });

  it('does not list an engine twice when ENGINES-free defaults already name the provider', () => {
    const routes = routeFeatures({ 'text-to-video': ['fal', 'preview'] }, [], [fal]);
    expect(routes['text-to-video']).toEqual(['fal', 'preview']);
  });
});

describe('routing seen from /healthz', () => {
  let t: TasksTestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function features(env: Record<string, string>) {
    t = await createTasksTestApp({ env });
    const res = await t.app.request('/healthz');
    const body = (await res.json()) as {
      data: { features: Array<{ feature: string; engines: Array<{ name: string }> }> };
    };
    return Object.fromEntries(body.data.features.map((f) => [f.feature, f.engines.map((e) => e.name)]));
  }

  it('a FAL_KEY alone routes the video and image features to fal, with the preview engine behind the video ones', async () => {
    const byFeature = await features({
      FAL_KEY: 'k',
      FAL_QUEUE_URL: 'http://127.0.0.1:9',
      FAL_STORAGE_URL: 'http://127.0.0.1:9',
    });
    expect(byFeature['text-to-video']).toEqual(['fal', 'preview']);
    expect(byFeature['tryon-clothes']).toEqual(['fal']);
    expect(byFeature['tts-common']).toEqual(['espeak']);
  });

  it('ENGINES still decides for a feature it names when a key is set', async () => {
    const byFeature = await features({ FAL_KEY: 'k', ENGINES: 'text-to-video=preview' });
    expect(byFeature['text-to-video']).toEqual(['preview']);
    expect(byFeature['image-to-video']).toEqual(['fal', 'preview']);
  });
});
