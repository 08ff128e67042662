// Shared set-up of the fal.ai adapter tests: a local fake of fal's API (its queue and storage surfaces behind one key
// check), its media and apps.
import { expect } from 'vitest';
import type { TasksTestApp } from '../../test-support/tasks';
import { readBody, sendJson } from '../../test-support/provider-fakes';
import { submitTool } from '../../test-support/customer-calls';
import { sineAudio, stillImage, videoClip } from '../../test-support/lavfi-media';
import { listPrice } from '../../../src/lib/product-rules';
import { listenFake, useAdapterFake, type AdapterFake, type FakeHandler } from './adapter-fake.fixtures';
import type { FalConfig } from './fal';
import { falQueueFake, type Mode, type QueueState } from './fal-queue.fixtures';
import { falStorageFake, isPresignedPath, type FakeCall, type MultipartUpload } from './fal-storage.fixtures';

/** The fake: records every call; `mode` decides how the next job behaves. */
export interface Fake extends AdapterFake<Mode, FakeCall> {
  /** Bytes PUT to fal storage, by the upload id that ends the file URL it answered. */
  uploads: Map<string, Buffer>;
  /** Status reads per request id. */
  statusCalls: Map<string, number>;
  /** A 'hook' job reports COMPLETED only after this is set. */
  released: boolean;
  /** Multipart uploads by the id that ends their file URL. */
  multipart: Map<string, MultipartUpload>;
  /** Result reads per request id. */
  resultCalls: Map<string, number>;
  /** Jobs still running here: neither canceled nor seen COMPLETED by a status read. */
  running(): string[];
  /** Request ids canceled with PUT …/cancel. */
  canceled(): string[];
  /** Forgets the jobs of the last test. */
  forgetJobs(): void;
}

/**
 * The fake's rules follow fal's official client, fal-ai/fal-js at commit 381105e138b85502b528fb8f6c16d909e30e462a
 * ("fal-js" here and in fal-queue.fixtures.ts and fal-storage.fixtures.ts).
 */
async function startFake(media: Record<'clip' | 'longClip' | 'picture', string>): Promise<Fake> {
  const state: QueueState = { mode: 'ok', released: false, rateLimited: 0 };
  const calls: FakeCall[] = [];
  const storage = falStorageFake(media, calls);
  const queue = falQueueFake(state, () => calls.length);
  const handle: FakeHandler = async (req, res, url, base) => {
    if (storage.part(req, res, url)) return;
    const body = await readBody(req);
    calls.push({
      method: req.method ?? '',
      path: url.pathname,
      query: url.search,
      auth: req.headers.authorization,
      body: body.toString('latin1').slice(0, 2000),
    });
    // A refused key: 401 with a detail sentence (https://fal.ai/docs/documentation/model-apis/request-errors lists no
    // error_type for it; fal-js libs/client/src/response.ts at 381105e makes any non-2xx an ApiError with the body).
    if (req.headers.authorization !== 'Key test-key' && !isPresignedPath(url.pathname))
      return sendJson(res, 401, { detail: 'Invalid key' });
    if (storage.handle(req, res, url, body, base)) return;
    queue.handle(req, res, url, body, base);
  };
  return listenFake(
    handle,
    {
      get released() {
        return state.released;
      },
      set released(r: boolean) {
        state.released = r;
      },
      calls,
      uploads: storage.uploads,
      multipart: storage.multipart,
      statusCalls: queue.statusCalls,
      resultCalls: queue.resultCalls,
      running: queue.running,
      canceled: queue.canceled,
      forgetJobs: queue.forgetJobs,
    },
    state,
  );
}

const FAL_FEATURES = ['text-to-video', 'lipsync', 'image-generation', 'erase', 'face-swap', 'restore', 'video-matting'];

/** What a text-to-video task of the default measures costs. */
export const PRICE = listPrice('text-to-video', {}).credits;

/** The calling test file's media, fake (started before its tests, reset after each) and apps wired to the fake. */
export function useFalFake() {
  const provider = useAdapterFake({
    mediaPrefix: 'fal-test-',
    media: {
      clip: videoClip('clip.mp4', 1),
      longClip: videoClip('long.mp4', 2),
      voice: sineAudio('voice.wav', 1),
      picture: stillImage('picture.png'),
      mask: stillImage('mask.png', 'color=c=white:s=64x64'),
    },
    start: startFake,
    reset: (fake) => {
      fake.calls.length = 0;
      fake.forgetJobs();
      fake.uploads.clear();
      fake.multipart.clear();
      fake.released = false;
      fake.mode = 'ok';
    },
    // Its fal engine serves every feature fal offers.
    env: (url) => ({
      FAL_KEY: 'test-key',
      FAL_QUEUE_URL: url,
      FAL_STORAGE_URL: url,
      ENGINES: FAL_FEATURES.map((f) => `${f}=fal`).join(','),
    }),
  });

  /** The JSON body the model was submitted with. */
  function submitted(model: string): Record<string, unknown> {
    const call = provider.fake.calls.find((c) => c.method === 'POST' && c.path === `/${model}`);
    expect(call, `no submit to ${model}`).toBeDefined();
    return JSON.parse(call!.body) as Record<string, unknown>;
  }

  /** The bytes behind a fal storage file URL we sent (so a field is checked to carry the right upload). */
  function uploaded(fileUrl: unknown): Buffer | undefined {
    return provider.fake.uploads.get(String(fileUrl).split('/files/')[1] ?? '');
  }

  return Object.assign(provider, {
    /** An engine configuration that talks to the fake. */
    falConfig: (extra: Partial<FalConfig> = {}): FalConfig => ({
      key: 'test-key',
      queueUrl: provider.fake.url,
      storageUrl: provider.fake.url,
      webhookBaseUrl: null,
      ...extra,
    }),
    submitText: (t: TasksTestApp, apiKey: string, prompt = 'a fox in snow') =>
      submitTool(t, apiKey, 'text2video', { prompt }),
    submitted,
    uploaded,
  });
}
