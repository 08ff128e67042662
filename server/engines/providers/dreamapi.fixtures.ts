// Shared set-up of the DreamAPI upstream tests: a local fake of DreamAPI (Bearer, /api/async/<tool>, getAsyncResult,
// three-step upload), its media and apps.
import type { TasksTestApp, TestUser } from '../../test-support/tasks';
import { readBody, sendFile, sendJson, sendProxyErrorPage } from '../../test-support/provider-fakes';
import { submitTool } from '../../test-support/customer-calls';
import { sineAudio, stillImage, videoClip } from '../../test-support/lavfi-media';
import { listPrice } from '../../../src/lib/product-rules';
import { listenFake, useAdapterFake, type AdapterFake, type FakeHandler } from './adapter-fake.fixtures';

/** How the fake's next job behaves. */
type Mode =
  | 'ok'
  | 'fail'
  | 'hang'
  | 'html'
  | 'no-task-id'
  | 'no-output'
  | 'rate-limited'
  | 'illegal'
  | 'no-credits'
  | 'invalid-field';

interface Call {
  path: string;
  auth: string | undefined;
  body: Record<string, unknown>;
}

interface Job {
  tool: string;
  mode: Mode;
  polls: number;
}

/** The fake: records every call, every storage upload and every job with its polls. */
export interface Fake extends AdapterFake<Mode, Call> {
  uploads: Array<{ key: string; fields: Record<string, string>; data: Buffer; auth: string | undefined }>;
  jobs: Map<string, Job>;
}

export const KEY = 'test-key';
/** Every feature the DreamAPI engine serves, routed to it. */
export const ALL =
  'tts-common=dreamapi,video-translate-voice-only=dreamapi,voice-clone=dreamapi,tts-clone=dreamapi,lipsync=dreamapi,wan-text-to-video=dreamapi,character-to-video=dreamapi,stt-common=dreamapi,stt-pro=dreamapi';

/** What a Wan text-to-video task at 480p costs. */
export const WAN_480 = listPrice('wan-text-to-video', { resolution: '480p' }).credits;

/** What a finished job of each tool answers (DreamAPI polling docs: images, videos, audios, cloneId, stt results). */
function outputsOf(tool: string, base: string): Record<string, unknown> {
  if (tool.startsWith('do_tts')) return { audios: [{ audioUrl: `${base}/out/voice.wav`, audioType: '.wav' }] };
  if (tool === 'voice_clone') return { cloneId: 'clone-40dc8e22' };
  if (tool === 'do_stt')
    return {
      sttResult: {
        data: [
          { bg: 0, ed: 900, text: 'Today is ' },
          { bg: 900, ed: 1500, text: 'a beautiful day.' },
        ],
      },
    };
  if (tool === 'do_stt_pro') return { sttProResult: { text: 'Today is a beautiful day.' } };
  if (tool === 'tryon_clothes') return { images: [{ imageUrl: `${base}/out/picture.png`, imageType: 'png' }] };
  return { videos: [{ videoUrl: `${base}/out/result-2s.mp4`, videoType: 'mp4' }] };
}

/** getAsyncResult: status 2 on the first poll, then the job's outcome. */
function poll(job: Job, taskId: string, base: string): Record<string, unknown> {
  job.polls++;
  const task = { taskId, taskType: job.tool, reason: '' };
  if (job.mode === 'hang' || job.polls === 1) return { task: { ...task, status: 2 } };
  if (job.mode === 'fail')
    return { task: { ...task, status: 4, reason: 'no face was detected in the image', errorCode: 60011 } };
  if (job.mode === 'no-output') return { task: { ...task, status: 3 } };
  // A DreamAPI-compatible upstream (such as this server) puts the credits a task cost on it; this fake does for Wan
  // only.
  const credits = job.tool.startsWith('wan/') ? { creditsCharged: 15 } : {};
  return { task: { ...task, status: 3, executionTime: 1200, ...credits }, ...outputsOf(job.tool, base) };
}

async function startFake({
  result2s,
  voice,
  picture,
}: Record<'result2s' | 'voice' | 'picture', string>): Promise<Fake> {
  const state = {
    mode: 'ok' as Mode,
    calls: [] as Call[],
    uploads: [] as Fake['uploads'],
    jobs: new Map<string, Job>(),
    policies: 0,
    rateLimited: 0,
  };
  const handle: FakeHandler = async (req, res, url, base) => {
    const raw = await readBody(req);
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      sendJson(res, status, value, headers);
    const ok = (data: unknown) => send(200, { code: 0, message: 'success', data });
    // The storage host: a form POST authorised by the policy's signature (no Bearer key), then public GETs.
    if (req.method === 'POST' && url.pathname === '/oss') {
      const form = await new Response(new Uint8Array(raw), {
        headers: { 'content-type': req.headers['content-type'] ?? '' },
      }).formData();
      const fields = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string')) as Record<
        string,
        string
      >;
      const blob = form.get('file');
      if (fields.signature !== 'sig-1' || fields.OSSAccessKeyId !== 'LTAI-test' || !(blob instanceof Blob))
        return send(403, '<Error><Code>AccessDenied</Code></Error>');
      state.uploads.push({
        key: fields.key!,
        fields,
        data: Buffer.from(await blob.arrayBuffer()),
        auth: req.headers.authorization,
      });
      return ok({ reqId: `req-${state.uploads.length}` });
    }
    if (req.method === 'GET' && url.pathname.startsWith('/files/')) {
      const up = state.uploads.find((u) => `/files/${u.key}` === url.pathname);
      return up ? (res.writeHead(200), res.end(up.data)) : send(404, 'missing');
    }
    if (req.method === 'GET' && url.pathname === '/out/result-2s.mp4') return sendFile(res, result2s, 'video/mp4');
    if (req.method === 'GET' && url.pathname === '/out/voice.wav') return sendFile(res, voice, 'audio/wav');
    if (req.method === 'GET' && url.pathname === '/out/picture.png') return sendFile(res, picture, 'image/png');

    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
    } catch {
      /* recorded as empty */
    }
    state.calls.push({ path: url.pathname, auth: req.headers.authorization, body });
    // A refused key: DreamAPI's docs give no code for it (expected as HTTP 401); a compatible server answers 401 with
    // SPEC.md §8's 40001 (src/lib/product-rules/errors.ts ERROR_CODES.notLoggedIn), as this stand-in does.
    if (req.headers.authorization !== `Bearer ${KEY}`)
      return send(401, { code: 40001, message: 'Invalid API key', data: null });
    if (req.method !== 'POST') return send(405, { code: 40005, message: 'POST only', data: null });

    if (url.pathname === '/api/file/v1/get_policy') {
      state.policies++;
      return ok({
        accessId: 'LTAI-test',
        policy: 'eyJleHBpcmF0aW9uIjoi',
        signature: 'sig-1',
        dir: 'tmp/dream/',
        host: `${base}/oss`,
        expire: '1800',
        callback: 'eyJjYWxsYmFja1VybCI6',
        reqId: `policy-${state.policies}`,
      });
    }
    if (url.pathname === '/api/file/v1/policy_upload_finish') {
      const n = Number(String(body.reqId).replace('req-', ''));
      const up = state.uploads[n - 1];
      if (!up) return send(200, { code: 10404, message: 'upload not found', data: null });
      return ok({
        url: `${base}/files/${up.key}?x-oss-expires=86399&x-oss-signature=abc`,
        expireAt: '2030-01-01 00:00:00',
        reqId: body.reqId,
      });
    }
    if (url.pathname === '/api/getAsyncResult') {
      const job = state.jobs.get(String(body.taskId));
      if (!job) return send(200, { code: 10404, message: 'task not found', data: null });
      return ok(poll(job, String(body.taskId), base));
    }
    if (url.pathname.startsWith('/api/async/')) {
      if (state.mode === 'html') return sendProxyErrorPage(res);
      if (state.mode === 'rate-limited' && state.rateLimited++ === 0)
        return send(429, { code: 40029, message: 'Too many requests', data: null }, { 'retry-after': '1' });
      if (state.mode === 'illegal')
        return send(200, { code: 10192, message: 'Illegal parameter: prompt contains forbidden words', data: null });
      // Credits too low: DreamAPI's docs give no code (its docs offer only POST /api/remaining_credits to read the
      // balance); a compatible server answers HTTP 402 with 40020 (src/lib/product-rules/tasks.ts
      // TASK_ERROR_CODES.insufficientCredits).
      if (state.mode === 'no-credits')
        return send(402, {
          code: 40020,
          message: 'Not enough credits for this task: it needs 15, the balance is 3',
          data: null,
        });
      // A refused field: a compatible server answers HTTP 400 with 40000 and "field: problem"
      // (src/lib/product-rules/errors.ts ERROR_CODES.invalidInput; src/lib/api-contract/schemas.ts); DreamAPI's
      // wan/text_to_video/2.1 takes a prompt of up to 1500 characters.
      if (state.mode === 'invalid-field')
        return send(400, { code: 40000, message: 'prompt: must be at most 1500 characters', data: null });
      if (state.mode === 'no-task-id') return ok({});
      // audioId is required on these two tools (https://api.newportai.com/docs/do-tts-common.html and
      // …/do-tts-pro.html, Request Body "audioId string Required"); DreamAPI refuses a call without it ("audioId is
      // required", as an operator saw for a French voice). The code is the docs' refused-parameter code, 10192.
      if (
        (url.pathname === '/api/async/do_tts_common' || url.pathname === '/api/async/do_tts_pro') &&
        (typeof body.audioId !== 'string' || !body.audioId)
      ) {
        return send(200, { code: 10192, message: 'audioId is required', data: null });
      }
      const taskId = `up-${state.jobs.size + 1}`;
      state.jobs.set(taskId, { tool: url.pathname.slice('/api/async/'.length), mode: state.mode, polls: 0 });
      return ok({ taskId });
    }
    send(404, { code: 40004, message: 'not found', data: null });
  };
  return listenFake(handle, { calls: state.calls, uploads: state.uploads, jobs: state.jobs }, state, () => {
    state.rateLimited = 0;
  });
}

/** The calling test file's media, fake (started before its tests, reset after each) and apps wired to the fake. */
export function useDreamApiFake() {
  const provider = useAdapterFake({
    mediaPrefix: 'dreamapi-test-',
    media: {
      clip: videoClip('clip.mp4', 1),
      result2s: videoClip('result-2s.mp4', 2),
      voice: sineAudio('voice.wav', 1),
      picture: stillImage('picture.png', 'color=c=teal:s=64x64'),
    },
    start: startFake,
    reset: (fake) => {
      fake.calls.length = 0;
      fake.uploads.length = 0;
      fake.jobs.clear();
      fake.mode = 'ok';
    },
    // Its DreamAPI engine serves every feature it offers.
    env: (url) => ({ DREAMAPI_KEY: KEY, DREAMAPI_BASE_URL: url, ENGINES: ALL }),
  });
  return Object.assign(provider, {
    submitWan: (t: TasksTestApp, user: TestUser) =>
      submitTool(t, user.apiKey, 'wan/text_to_video/2.1', { prompt: 'a fox in snow', resolution: '480p' }),
    /** The submits the fake received for `tool`. */
    submits: (tool: string) => provider.fake.calls.filter((c) => c.path === `/api/async/${tool}`),
    /** How often the fake's job was polled. */
    pollsOf: (upstreamId: string) => provider.fake.jobs.get(upstreamId)?.polls ?? 0,
  });
}
