// Shared set-up of the ElevenLabs adapter tests: a local stand-in for ElevenLabs' API (its speech and dubbing surfaces
// behind the account's refusals), its media and apps.
import path from 'node:path';
import type { TasksTestApp, TestUser } from '../../test-support/tasks';
import { readBody } from '../../test-support/provider-fakes';
import { postPlayground } from '../../test-support/customer-calls';
import { sineAudio, videoClip } from '../../test-support/lavfi-media';
import { listPrice, type Feature } from '../../../src/lib/product-rules';
import { listenFake, useAdapterFake, type AdapterFake, type FakeHandler } from './adapter-fake.fixtures';
import { answers, parseBody, type Call, type Mode } from './elevenlabs-calls.fixtures';
import { elevenLabsDubbingFake } from './elevenlabs-dubbing.fixtures';
import { elevenLabsSpeechFake } from './elevenlabs-speech.fixtures';

/** The fake: records every call; `mode` decides how the next requests and jobs behave. */
export interface Fake extends AdapterFake<Mode, Call> {
  /** Lets the jobs of a 'gated' test finish. */
  release(): void;
  /** Forgets the calls and jobs of the last test (dubbing ids start again at dub1). */
  reset(): void;
  /** The statuses each dubbing job answered, poll by poll. */
  statuses(dubbingId: string): string[];
  /** Dubs still running here: neither deleted nor last seen dubbed or failed. */
  running(): string[];
}

export const KEY = 'test-key';
export const TEXT = 'Hello from the ElevenLabs adapter.';
const SERVED =
  'tts-common=elevenlabs,tts-pro=elevenlabs,tts-clone=elevenlabs,voice-clone=elevenlabs,dialogue=elevenlabs,video-translate-voice-only=elevenlabs,stt-common=elevenlabs,stt-pro=elevenlabs';

// Each rule of the stand-in cites where ElevenLabs states it, at the commit read: elevenlabs/elevenlabs-js@87100890798f
// (87100890798f961a1b93300e9bb443dc35b5de6a, the official client, v2.56.0) and elevenlabs/elevenlabs-docs@3557f0b1bec8
// (3557f0b1bec8ec0233e48d03cc496f03c4396dcb, the docs and OpenAPI). The adapter calls the official client
// @elevenlabs/elevenlabs-js 2.73.0 (node_modules); "2.73.0 <path>" cites its shipped source. Its response parsers
// refuse an answer that lacks a required field, so the answers here carry every field its types require.

export const price = (feature: Feature, measures: Parameters<typeof listPrice>[1]) =>
  listPrice(feature, measures).credits;

async function startFake(media: { dir: string; tone: string; dubbed: string }): Promise<Fake> {
  const state = { mode: 'ok' as Mode, calls: [] as Call[], rateLimited: 0, released: false };
  const speech = elevenLabsSpeechFake(state, media.tone);
  const dubbing = elevenLabsDubbingFake(state, media.dubbed);
  const handle: FakeHandler = async (req, res, url) => {
    const body = await readBody(req);
    const key = req.headers['xi-api-key'] as string | undefined;
    const call: Call = {
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      key,
      ...(await parseBody(req, body)),
    };
    state.calls.push(call);
    const { send, file } = answers(res);
    // Files ElevenLabs does not serve: an input on another host, reached without the key.
    if (req.method === 'GET' && url.pathname.startsWith('/files/'))
      return file(path.join(media.dir, path.basename(url.pathname)), 'audio/wav');
    // A wrong key: 401 invalid_api_key (elevenlabs/elevenlabs-docs@3557f0b1bec8
    // fern/docs/pages/developer-guides/error-messages.mdx, "Code 400/401").
    if (key !== KEY) return send(401, { detail: { status: 'invalid_api_key', message: 'Invalid API key' } });
    // A spent quota: 401 quota_exceeded, the account's fault not the request's (elevenlabs/elevenlabs-docs@3557f0b1bec8
    // fern/docs/pages/developer-guides/error-messages.mdx, "Code 400/401").
    if (state.mode === 'quota' && req.method === 'POST')
      return send(401, {
        detail: {
          status: 'quota_exceeded',
          message: 'This request exceeds your quota of 10000. You have 12 credits remaining.',
        },
      });
    // Too many requests at once: 429 too_many_concurrent_requests, retried after the Retry-After it asks for, as the
    // official client's rule is (elevenlabs/elevenlabs-docs@3557f0b1bec8
    // fern/docs/pages/developer-guides/error-messages.mdx "Code 429"; elevenlabs/elevenlabs-js@87100890798f
    // src/core/fetcher/requestWithRetries.ts); the adapter keeps that rule in its own retry loop (elevenlabs-api.ts
    // says why).
    if (state.mode === 'rate-limited' && req.method === 'POST' && state.rateLimited++ === 0)
      return send(
        429,
        { detail: { status: 'too_many_concurrent_requests', message: 'Too many requests' } },
        { 'retry-after': '1' },
      );
    // Busy for good: 429 system_busy on every try (elevenlabs/elevenlabs-docs@3557f0b1bec8
    // fern/docs/pages/developer-guides/error-messages.mdx "Code 429").
    if (state.mode === 'busy' && req.method === 'POST')
      return send(
        429,
        {
          detail: {
            status: 'system_busy',
            message: 'The system is experiencing heavy traffic, please try again later.',
          },
        },
        { 'retry-after': '0' },
      );

    if (speech.handle(res, url, call) || dubbing.handle(res, url, call)) return;
    send(404, { detail: { status: 'not_found', message: 'Not found' } });
  };
  const release = () => {
    state.released = true;
  };
  const reset = () => {
    state.calls.length = 0;
    dubbing.forget();
  };
  const { statuses, running } = dubbing;
  return listenFake(handle, { calls: state.calls, release, reset, statuses, running }, state, () => {
    state.rateLimited = 0;
    state.released = false;
  });
}

/** A logger that keeps what the adapter tells operators (shared by every provider's tests). */
export { capturedLog } from '../../test-support/provider-fakes';

/** The task as the playground's poll shows it. */
export async function view(t: TasksTestApp, user: TestUser, taskId: string) {
  const res = await postPlayground(t, user, 'video_tools/v1/poll', { taskId });
  return (
    (await res.json()) as {
      data: {
        text: string | null;
        cloneId: string | null;
        outputs: Array<{ kind: string; mime: string; durationS: number | null }>;
      };
    }
  ).data;
}

/**
 * The calling test file's media, fake (started before its tests, reset to 'ok' after each) and apps wired to the fake.
 */
export function useElevenLabsFake() {
  const provider = useAdapterFake({
    mediaPrefix: 'elevenlabs-test-',
    media: {
      tone: sineAudio('tone.mp3', 1),
      speech: sineAudio('speech.wav', 61, { sampleRate: 8000 }),
      source: videoClip('source.mp4', 1, { audio: true }),
      dubbed: videoClip('dubbed.mp4', 3, { audio: true }),
      synced: videoClip('synced.mp4', 2, { audio: true }),
    },
    start: startFake,
    reset: (fake) => {
      fake.reset();
      fake.mode = 'ok';
    },
    // Its ElevenLabs engine serves every feature it offers without a lip-sync model.
    env: (url) => ({ ELEVENLABS_API_KEY: KEY, ELEVENLABS_BASE_URL: url, ENGINES: SERVED }),
  });
  return Object.assign(provider, {
    /** The POSTs the fake received to paths starting with `prefix`. */
    posts: (prefix: string) => provider.fake.calls.filter((c) => c.method === 'POST' && c.path.startsWith(prefix)),
  });
}
