// Shared set-up of the ElevenLabs adapter tests: a local stand-in for ElevenLabs' API (TTS, dialogue, voices/add,
// dubbing, speech-to-text), its media and apps.
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { TasksTestApp, TestUser } from '../../test-support/tasks';
import {
  listenLocal,
  postPlayground,
  readBody,
  sendFile,
  sendJson,
  sendProxyErrorPage,
  sineAudio,
  useTestApps,
  useTestMedia,
  videoClip,
  withMode,
  type LocalServer,
} from '../../test-support/provider-fakes';
import { listPrice } from '../../../src/lib/product-rules';
import { ELEVENLABS_VOICES } from './elevenlabs-constants';
import type { Feature } from '../../../src/lib/product-rules';

type Mode = 'ok' | 'gated' | 'fail' | 'hang' | 'malformed' | 'rate-limited' | 'new-status' | 'quota' | 'busy';
type FormValue = string | { name: string; type: string; size: number };

interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  key: string | undefined;
  json?: Record<string, unknown>;
  form?: Record<string, FormValue>;
}

/** The fake: records every call; `mode` decides how the next requests and jobs behave. */
export interface Fake extends LocalServer {
  mode: Mode;
  calls: Call[];
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

/**
 * The statuses a dub walks through before it ends dubbed or failed (elevenlabs/elevenlabs-js@87100890798f
 * src/api/resources/dubbing/types/DubbingListRequestDubbingStatusesItem.ts), one per poll.
 */
const DUBBING_WALK = ['queued', 'preparing', 'dubbing'] as const;
/**
 * A status no source lists yet: DubbingMetadataResponse.status is a plain string (elevenlabs/elevenlabs-
 * js@87100890798f src/api/types/DubbingMetadataResponse.ts).
 */
const NEW_STATUS = 'rendering';
/** When every dub here was made: DubbingMetadataResponse.created_at is required (ISO 8601 date-time). */
const CREATED_AT = '2026-11-27T00:00:00Z';

export const price = (feature: Feature, measures: Parameters<typeof listPrice>[1]) =>
  listPrice(feature, measures).credits;

/** Multipart bodies are parsed as ElevenLabs would: text fields, and files with their name, type and size. */
async function parseBody(req: IncomingMessage, body: Buffer): Promise<Pick<Call, 'json' | 'form'>> {
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('application/json')) return { json: JSON.parse(body.toString()) as Record<string, unknown> };
  if (!type.startsWith('multipart/form-data')) return {};
  const form: Record<string, FormValue> = {};
  for (const [name, value] of await new Response(new Uint8Array(body), {
    headers: { 'content-type': type },
  }).formData()) {
    form[name] = typeof value === 'string' ? value : { name: value.name, type: value.type, size: value.size };
  }
  return { form };
}

/**
 * The status of a job's next poll: 'ok' walks queued → preparing → dubbing → dubbed, one step a poll; 'gated' walks the
 * same way but stays dubbing until released; 'new-status' answers a status no source lists before it is dubbed;
 * 'fail' ends failed after queued; 'hang' never ends.
 */
function dubbingStatus(job: { mode: Mode; polls: number }, released: boolean): string {
  const walking = DUBBING_WALK[Math.min(job.polls, DUBBING_WALK.length - 1)]!;
  if (job.mode === 'ok') return job.polls < DUBBING_WALK.length ? walking : 'dubbed';
  if (job.mode === 'gated') return released && job.polls >= DUBBING_WALK.length ? 'dubbed' : walking;
  if (job.mode === 'new-status') return job.polls < 2 ? NEW_STATUS : 'dubbed';
  if (job.mode === 'fail') return job.polls === 0 ? 'queued' : 'failed';
  return walking;
}

async function startFake(media: { dir: string; tone: string; dubbed: string }): Promise<Fake> {
  const state = { mode: 'ok' as Mode, calls: [] as Call[], rateLimited: 0, released: false, clones: new Set<string>() };
  const jobs = new Map<string, { mode: Mode; target: string; polls: number; statuses: string[]; deleted: boolean }>();
  const premade = new Set(Object.values(ELEVENLABS_VOICES).map((v) => v.voiceId));
  const local = await listenLocal(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    const key = req.headers['xi-api-key'] as string | undefined;
    const call: Call = {
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      key,
      ...(await parseBody(req, body)),
    };
    state.calls.push(call);
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      sendJson(res, status, value, headers);
    const html = () => sendProxyErrorPage(res);
    // Files ElevenLabs does not serve: an input on another host, reached without the key.
    if (req.method === 'GET' && url.pathname.startsWith('/files/'))
      return sendFile(res, path.join(media.dir, path.basename(url.pathname)), 'audio/wav');
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

    const tts = /^\/v1\/text-to-speech\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'POST' && (tts || url.pathname === '/v1/text-to-dialogue')) {
      const voices = tts
        ? [decodeURIComponent(tts[1]!)]
        : ((call.json?.inputs as Array<{ voice_id: string }> | undefined) ?? []).map((i) => i.voice_id);
      const unknown = voices.find((v) => !premade.has(v) && !state.clones.has(v));
      if (unknown)
        return send(400, {
          detail: { status: 'voice_not_found', message: `A voice with voice_id ${unknown} was not found.` },
        });
      if (!call.json?.model_id)
        return send(422, {
          detail: [{ loc: ['body', 'model_id'], msg: 'field required', type: 'value_error.missing' }],
        });
      // Speech answers say what they billed (character-cost; Flash bills half a character per character); dialogue's
      // here do not.
      const billed = tts
        ? {
            'character-cost': String(
              Math.ceil(String(call.json?.text ?? '').length * (call.json?.model_id === 'eleven_flash_v2_5' ? 0.5 : 1)),
            ),
          }
        : undefined;
      return state.mode === 'malformed' ? html() : sendFile(res, media.tone, 'audio/mpeg', billed);
    }
    if (req.method === 'POST' && url.pathname === '/v1/voices/add') {
      const recording = call.form?.files;
      if (!call.form?.name || typeof recording !== 'object')
        return send(422, { detail: [{ loc: ['body', 'files'], msg: 'field required' }] });
      if (state.mode === 'malformed') return send(200, { requires_verification: false });
      const id = `clone${state.clones.size + 1}Voice`;
      state.clones.add(id);
      return send(200, { voice_id: id, requires_verification: false });
    }
    if (req.method === 'POST' && url.pathname === '/v1/dubbing') {
      if (state.mode === 'malformed') return html();
      if (typeof call.form?.file !== 'object' || typeof call.form.target_lang !== 'string')
        return send(400, {
          detail: { status: 'invalid_request', message: 'Provide a file or a source_url and a target_lang' },
        });
      // A field that fails validation: 422 HTTPValidationError, detail[] of {loc, msg, type} naming it
      // (elevenlabs/elevenlabs-docs@3557f0b1bec8 fern/apis/api/openapi.json, components.schemas.HTTPValidationError and
      // ValidationError). Which codes pass is the stand-in's own simplification: two or three lowercase letters.
      if (!/^[a-z]{2,3}$/.test(call.form.target_lang))
        return send(422, {
          detail: [
            {
              loc: ['body', 'target_lang'],
              msg: `Unsupported target language: ${call.form.target_lang}`,
              type: 'value_error',
            },
          ],
        });
      const id = `dub${jobs.size + 1}`;
      jobs.set(id, { mode: state.mode, target: call.form.target_lang, polls: 0, statuses: [], deleted: false });
      return send(200, { dubbing_id: id, expected_duration_sec: 2 });
    }
    const dub = /^\/v1\/dubbing\/([^/]+)(\/audio\/([^/]+))?$/.exec(url.pathname);
    const job = dub ? jobs.get(dub[1]!) : undefined;
    if (dub && (!job || job.deleted))
      return send(404, { detail: { status: 'dubbing_not_found', message: 'Dubbing not found' } });
    // DELETE /v1/dubbing/{dubbing_id} answers {status: 'ok'} (elevenlabs/elevenlabs-js@87100890798f
    // src/api/resources/dubbing/client/Client.ts delete(), src/api/types/DeleteDubbingResponseModel.ts); the job is
    // gone afterwards.
    if (job && req.method === 'DELETE' && !dub![3]) {
      job.deleted = true;
      return send(200, { status: 'ok' });
    }
    if (job && req.method === 'GET' && dub![3])
      return dub![3] === job.target
        ? sendFile(res, media.dubbed, 'video/mp4')
        : send(404, { detail: { status: 'language_not_found', message: 'No dub for this language' } });
    if (job && req.method === 'GET') {
      const status = dubbingStatus(job, state.released);
      job.polls++;
      job.statuses.push(status);
      // GET /v1/dubbing/{dubbing_id} answers DubbingMetadataResponse: dubbing_id, name, status, target_languages and
      // created_at required, error when failed (elevenlabs/elevenlabs-js@87100890798f
      // src/api/types/DubbingMetadataResponse.ts; 2.73.0 serialization/types/DubbingMetadataResponse.js;
      // elevenlabs/elevenlabs-docs@3557f0b1bec8 fern/apis/api/openapi.json
      // components.schemas.DubbingMetadataResponse.required).
      return send(200, {
        dubbing_id: dub![1],
        name: 'x',
        status,
        target_languages: [job.target],
        created_at: CREATED_AT,
        ...(status === 'failed' ? { error: 'No speech was found in the video' } : {}),
      });
    }
    if (req.method === 'POST' && url.pathname === '/v1/speech-to-text') {
      if (state.mode === 'malformed') return html();
      if (typeof call.form?.file !== 'object' || !call.form.model_id)
        return send(422, { detail: [{ loc: ['body', 'file'], msg: 'field required' }] });
      const diarize = call.form.diarize === 'true';
      // Each word of SpeechToTextChunkResponseModel needs text, type and logprob (2.73.0
      // serialization/types/SpeechToTextWordResponseModel.js; elevenlabs/elevenlabs-docs@3557f0b1bec8
      // fern/apis/api/openapi.json components.schemas.SpeechToTextWordResponseModel.required).
      const word = (text: string, speaker: string, type = 'word') => ({
        text,
        type,
        start: 0,
        end: 0,
        logprob: 0,
        ...(diarize ? { speaker_id: speaker } : {}),
      });
      const words = [
        word('Hello', 'speaker_0'),
        word(' ', 'speaker_0', 'spacing'),
        word('there.', 'speaker_0'),
        word(' ', 'speaker_1', 'spacing'),
        word('Hi', 'speaker_1'),
        word(' ', 'speaker_1', 'spacing'),
        word('(laughs)', 'speaker_1', 'audio_event'),
      ];
      return send(200, { language_code: 'eng', language_probability: 0.98, text: 'Hello there. Hi (laughs)', words });
    }
    send(404, { detail: { status: 'not_found', message: 'Not found' } });
  });
  const release = () => {
    state.released = true;
  };
  const reset = () => {
    state.calls.length = 0;
    jobs.clear();
  };
  const statuses = (id: string) => jobs.get(id)?.statuses ?? [];
  const running = () =>
    [...jobs]
      .filter(([, j]) => !j.deleted && !['dubbed', 'failed'].includes(j.statuses.at(-1) ?? ''))
      .map(([id]) => id);
  return withMode({ ...local, calls: state.calls, release, reset, statuses, running }, state, () => {
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
  const media = useTestMedia('elevenlabs-test-', {
    tone: sineAudio('tone.mp3', 1),
    speech: sineAudio('speech.wav', 61, { sampleRate: 8000 }),
    source: videoClip('source.mp4', 1, { audio: true }),
    dubbed: videoClip('dubbed.mp4', 3, { audio: true }),
    synced: videoClip('synced.mp4', 2, { audio: true }),
  });
  let fake!: Fake;
  beforeAll(async () => {
    fake = await startFake(media);
  });
  afterAll(() => fake.close());
  const openApp = useTestApps(() => {
    fake.reset();
    fake.mode = 'ok';
  });
  return {
    media,
    openApp,
    get fake() {
      return fake;
    },
    /** An app whose ElevenLabs engine talks to the fake and serves every feature it offers without a lip-sync model. */
    app: (extra: Record<string, string> = {}) =>
      openApp({ env: { ELEVENLABS_API_KEY: KEY, ELEVENLABS_BASE_URL: fake.url, ENGINES: SERVED, ...extra } }),
    /** The POSTs the fake received to paths starting with `prefix`. */
    posts: (prefix: string) => fake.calls.filter((c) => c.method === 'POST' && c.path.startsWith(prefix)),
  };
}
