// Shared set-up of the fal.ai adapter tests: a local fake of fal's queue API (submit, status, result, cancel, storage),
// its media and apps. Its rules follow fal's official client, fal-ai/fal-js at commit
// 381105e138b85502b528fb8f6c16d909e30e462a ("fal-js" below).
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, expect } from 'vitest';
import type { TasksTestApp } from '../../test-support/tasks';
import {
  listenLocal,
  readBody,
  sendFile,
  sendJson,
  sendProxyErrorPage,
  sineAudio,
  stillImage,
  submitTool,
  useTestApps,
  useTestMedia,
  videoClip,
  withMode,
  type LocalServer,
} from '../../test-support/provider-fakes';
import { listPrice } from '../../../src/lib/product-rules';
import { FAL_MODELS } from '../../../src/lib/product-rules';
import type { FalConfig } from './fal';

/**
 * How the next job behaves; 'one-image' answers a single image whatever was asked, 'hook' completes only once released,
 * 'bare' answers a submit with its request_id alone, 'submit-502' queues the job but answers its submit 502 (a gateway
 * failing after fal took it), 'result-502' answers the first read of each finished result 502, 'locked' refuses every
 * submit as a locked account does, 'invalid' refuses the input on the result naming negative_prompt.
 */
type Mode =
  | 'ok'
  | 'fail'
  | 'hang'
  | 'malformed'
  | 'rate-limited'
  | 'no-output'
  | 'one-image'
  | 'hook'
  | 'bare'
  | 'submit-502'
  | 'result-502'
  | 'locked'
  | 'invalid';

/** A multipart upload as the fake saw it: bytes counted and hashed per part as they streamed in, never kept. */
export interface MultipartUpload {
  initiate: { content_type?: unknown; file_name?: unknown };
  parts: Array<{ partNumber: number; bytes: number; query: string }>;
  sha256: ReturnType<typeof createHash>;
  completed: Array<{ partNumber: number; etag: string }> | null;
}

interface Call {
  method: string;
  path: string;
  query: string;
  auth: string | undefined;
  body: string;
}

/** The fake: records every call; `mode` decides how the next job behaves. */
export interface Fake extends LocalServer {
  mode: Mode;
  calls: Call[];
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
 * A multipart part, PUT to {upload_url}/{n} with the upload URL's query kept and answered {partNumber, etag}
 * (fal-js libs/client/src/storage.ts multipartUpload / partUploadRetries). Counted and hashed as it streams in, so a
 * 90 MB+ upload is never held by the fake.
 */
function receivePart(
  req: IncomingMessage,
  res: ServerResponse,
  upload: MultipartUpload,
  partNumber: number,
  query: string,
): void {
  let bytes = 0;
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    upload.sha256.update(chunk);
  });
  req.on('end', () => {
    upload.parts.push({ partNumber, bytes, query });
    sendJson(res, 200, { partNumber, etag: `etag-${partNumber}` });
  });
}

/** What fal answers a finished job with, by model (each model's documented result shape). */
function resultOf(base: string, model: string, body: Record<string, unknown>, mode: Mode): Record<string, unknown> {
  const image = (n: number) => ({ url: `${base}/files/img-${n}.png`, content_type: 'image/png' });
  if (model === FAL_MODELS.imageGeneration) {
    const count = mode === 'one-image' ? 1 : Number(body.num_images ?? 1);
    return { images: Array.from({ length: count }, (_, n) => image(n)), seed: 7 };
  }
  if ([FAL_MODELS.erase, FAL_MODELS.faceSwap, FAL_MODELS.restore, FAL_MODELS.tryOn].includes(model as never))
    return { image: image(0) };
  // Matting answers a longer video than its input so a per-second charge on the output is told apart from one on the
  // input.
  if (model === FAL_MODELS.videoMatting) return { video: { url: `${base}/files/long.mp4`, content_type: 'video/mp4' } };
  return { video: { url: `${base}/files/out.mp4`, content_type: 'video/mp4' }, seed: 42 };
}

async function startFake({ clip, longClip, picture }: Record<'clip' | 'longClip' | 'picture', string>): Promise<Fake> {
  const state = { mode: 'ok' as Mode, released: false, rateLimited: 0, uploadSeq: 0 };
  const calls: Call[] = [];
  const uploads = new Map<string, Buffer>();
  const multipart = new Map<string, MultipartUpload>();
  const statusCalls = new Map<string, number>();
  const resultCalls = new Map<string, number>();
  const jobs = new Map<
    string,
    { model: string; body: Record<string, unknown>; mode: Mode; canceled?: boolean; completed?: boolean }
  >();
  const local = await listenLocal(async (req, res, base) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      sendJson(res, status, value, headers);
    // Parts stream in uncounted by readBody: the presigned upload URL's signature authorises them, not our key.
    const part = req.method === 'PUT' ? /^\/multipart\/([^/]+)\/(\d+)$/.exec(url.pathname) : null;
    if (part) {
      calls.push({ method: 'PUT', path: url.pathname, query: url.search, auth: req.headers.authorization, body: '' });
      const upload = multipart.get(part[1]!);
      if (!upload || url.searchParams.get('signature') !== `s-${part[1]}`)
        return send(403, { detail: 'bad upload signature' });
      return receivePart(req, res, upload, Number(part[2]), url.search);
    }
    const body = await readBody(req);
    calls.push({
      method: req.method ?? '',
      path: url.pathname,
      query: url.search,
      auth: req.headers.authorization,
      body: body.toString('latin1').slice(0, 2000),
    });
    const presigned =
      url.pathname.startsWith('/files/') ||
      url.pathname.startsWith('/upload/') ||
      url.pathname.startsWith('/multipart/');
    // A refused key: 401 with a detail sentence (https://fal.ai/docs/documentation/model-apis/request-errors lists no
    // error_type for it; fal-js libs/client/src/response.ts at 381105e makes any non-2xx an ApiError with the body).
    if (req.headers.authorization !== 'Key test-key' && !presigned) return send(401, { detail: 'Invalid key' });
    // fal-js initiates both kinds of upload on its REST host with ?storage_type=fal-cdn-v3 and {content_type,
    // file_name} (storage.ts initiateUpload / initiateMultipartUpload), answered {upload_url, file_url}.
    if (req.method === 'POST' && url.pathname === '/storage/upload/initiate') {
      const id = `u${state.uploadSeq++}`;
      return send(200, { upload_url: `${base}/upload/${id}`, file_url: `${base}/files/${id}` });
    }
    if (req.method === 'POST' && url.pathname === '/storage/upload/initiate-multipart') {
      const id = `m${state.uploadSeq++}`;
      multipart.set(id, {
        initiate: JSON.parse(body.toString() || '{}') as MultipartUpload['initiate'],
        parts: [],
        sha256: createHash('sha256'),
        completed: null,
      });
      return send(200, { upload_url: `${base}/multipart/${id}?signature=s-${id}`, file_url: `${base}/files/${id}` });
    }
    // POST {upload_url}/complete {parts: [{partNumber, etag}]} ends it (storage.ts multipartUpload): every part, in
    // order.
    const complete = req.method === 'POST' ? /^\/multipart\/([^/]+)\/complete$/.exec(url.pathname) : null;
    if (complete) {
      const upload = multipart.get(complete[1]!);
      if (!upload || url.searchParams.get('signature') !== `s-${complete[1]}`)
        return send(403, { detail: 'bad upload signature' });
      const parts =
        (JSON.parse(body.toString() || '{}') as { parts?: Array<{ partNumber: number; etag: string }> }).parts ?? [];
      const expected = upload.parts.map((p, i) => ({ partNumber: i + 1, etag: `etag-${i + 1}` }));
      if (JSON.stringify(parts) !== JSON.stringify(expected))
        return send(400, { detail: 'parts do not match the uploaded parts' });
      upload.completed = parts;
      return send(200, {});
    }
    if (req.method === 'PUT' && url.pathname.startsWith('/upload/')) {
      uploads.set(url.pathname.slice('/upload/'.length), body);
      return send(200, {});
    }
    if (req.method === 'GET' && url.pathname.startsWith('/files/')) {
      const name = url.pathname.slice('/files/'.length);
      const [type, file] = name.startsWith('img-')
        ? ['image/png', picture]
        : name === 'long.mp4'
          ? ['video/mp4', longClip]
          : ['video/mp4', clip];
      return sendFile(res, file, type);
    }
    // A job's status, result and cancel live under the app, owner/alias (the endpoint id's first two segments), not the
    // full model path (fal-js queue.ts status/result/cancel with utils.ts parseEndpointId).
    const job = /^\/([^/]+\/[^/]+)\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(url.pathname);
    if (req.method === 'POST' && !job) {
      if (state.mode === 'malformed') return sendProxyErrorPage(res);
      // A locked account: 403 with fal's detail sentence. fal's FAQ: "When your credit balance drops below your
      // account's lock threshold, your account is locked and API requests will be rejected"
      // (https://fal.ai/docs/documentation/model-apis/faq); the body as users report it
      // (https://wavespeed.ai/blog/ai-guides/fal-ai-user-is-locked-admin-lock-fix/).
      if (state.mode === 'locked')
        return send(403, {
          detail: 'User is locked. Reason: Exhausted balance. Top up your balance at fal.ai/dashboard/billing.',
        });
      if (state.mode === 'rate-limited' && state.rateLimited++ === 0)
        return send(429, { detail: 'Too many requests' }, { 'retry-after': '1' });
      const id = `req-${calls.length}-${state.mode}`;
      const model = url.pathname.slice(1);
      jobs.set(id, { model, body: JSON.parse(body.toString() || '{}') as Record<string, unknown>, mode: state.mode });
      // 502 is one of the statuses fal-js's client retries (retry.ts DEFAULT_RETRYABLE_STATUS_CODES): here the job
      // was queued all the same, so a client that re-sends would start a second one.
      if (state.mode === 'submit-502') return send(502, { detail: 'Bad Gateway' });
      const app = model.split('/').slice(0, 2).join('/');
      if (state.mode === 'bare') return send(200, { request_id: id });
      return send(200, {
        request_id: id,
        status_url: `${base}/${app}/requests/${id}/status`,
        response_url: `${base}/${app}/requests/${id}`,
        cancel_url: `${base}/${app}/requests/${id}/cancel`,
        queue_position: 0,
      });
    }
    // A request id fal never issued (or no longer keeps) is refused; fal-js reads any non-2xx as an ApiError
    // (libs/client/src/response.ts at 381105e138b85502b528fb8f6c16d909e30e462a). 404 with a detail is the stand-in's
    // own choice of refusal.
    if (job && !jobs.has(job[2]!)) return send(404, { detail: 'Request not found' });
    // PUT {owner}/{alias}/requests/{id}/cancel (fal-js queue.ts cancel()); the stand-in counts the job as stopped.
    if (job && req.method === 'PUT' && job[3] === '/cancel') {
      jobs.get(job[2]!)!.canceled = true;
      return send(202, { status: 'CANCELLATION_REQUESTED' });
    }
    if (job && req.method === 'GET' && job[3] === '/status') {
      const id = job[2]!;
      const answer = (status: Record<string, unknown>) => {
        if (status.status === 'COMPLETED') jobs.get(id)!.completed = true;
        return send(200, status);
      };
      const n = (statusCalls.get(id) ?? 0) + 1;
      statusCalls.set(id, n);
      if (id.endsWith('hang')) return answer({ status: n === 1 ? 'IN_QUEUE' : 'IN_PROGRESS', queue_position: 0 });
      if (id.endsWith('hook')) return answer({ status: state.released ? 'COMPLETED' : 'IN_PROGRESS' });
      return answer(n === 1 ? { status: 'IN_PROGRESS', logs: [] } : { status: 'COMPLETED' });
    }
    if (job && req.method === 'GET') {
      const known = jobs.get(job[2]!);
      const reads = (resultCalls.get(job[2]!) ?? 0) + 1;
      resultCalls.set(job[2]!, reads);
      // A passing gateway failure on a finished job's result: fal-js retries result reads on 502 (queue.ts result()
      // with QUEUE_RETRY_CONFIG, retry.ts DEFAULT_RETRYABLE_STATUS_CODES).
      if (known?.mode === 'result-502' && reads === 1) return send(502, { detail: 'Bad Gateway' });
      if (known?.mode === 'fail')
        return send(422, { detail: [{ loc: ['body', 'prompt'], msg: 'prompt was flagged by the content checker' }] });
      if (known?.mode === 'no-output') return send(200, { seed: 4 });
      // A model's input validation: 422 with FastAPI's detail list of {loc, msg, type}
      // (https://fal.ai/docs/documentation/model-apis/errors; fal-js libs/client/src/response.ts ValidationError at
      // 381105e).
      if (known?.mode === 'invalid')
        return send(422, {
          detail: [
            {
              loc: ['body', 'negative_prompt'],
              msg: 'ensure this value has at most 500 characters',
              type: 'string_too_long',
            },
          ],
        });
      // fal's billing counts a job in billable units on its result (one per Wan video here); the other models send
      // none.
      const billed: Record<string, string> = known?.model.includes('/wan-') ? { 'x-fal-billable-units': '1' } : {};
      return send(200, resultOf(base, known?.model ?? '', known?.body ?? {}, known?.mode ?? 'ok'), billed);
    }
    send(404, { detail: 'not found' });
  });
  return withMode(
    {
      ...local,
      get released() {
        return state.released;
      },
      set released(r: boolean) {
        state.released = r;
      },
      calls,
      uploads,
      multipart,
      statusCalls,
      resultCalls,
      running: () => [...jobs].filter(([, j]) => !j.canceled && !j.completed).map(([id]) => id),
      canceled: () => [...jobs].filter(([, j]) => j.canceled).map(([id]) => id),
      forgetJobs: () => jobs.clear(),
    },
    state,
  );
}

const FAL_FEATURES = ['text-to-video', 'lipsync', 'image-generation', 'erase', 'face-swap', 'restore', 'video-matting'];

/** What a text-to-video task of the default measures costs. */
export const PRICE = listPrice('text-to-video', {}).credits;

/** The calling test file's media, fake (started before its tests, reset after each) and apps wired to the fake. */
export function useFalFake() {
  const media = useTestMedia('fal-test-', {
    clip: videoClip('clip.mp4', 1),
    longClip: videoClip('long.mp4', 2),
    voice: sineAudio('voice.wav', 1),
    picture: stillImage('picture.png'),
    mask: stillImage('mask.png', 'color=c=white:s=64x64'),
  });
  let fake!: Fake;
  beforeAll(async () => {
    fake = await startFake(media);
  });
  afterAll(() => fake.close());
  const openApp = useTestApps(() => {
    fake.calls.length = 0;
    fake.forgetJobs();
    fake.uploads.clear();
    fake.multipart.clear();
    fake.released = false;
    fake.mode = 'ok';
  });

  /** The JSON body the model was submitted with. */
  function submitted(model: string): Record<string, unknown> {
    const call = fake.calls.find((c) => c.method === 'POST' && c.path === `/${model}`);
    expect(call, `no submit to ${model}`).toBeDefined();
    return JSON.parse(call!.body) as Record<string, unknown>;
  }

  /** The bytes behind a fal storage file URL we sent (so a field is checked to carry the right upload). */
  function uploaded(fileUrl: unknown): Buffer | undefined {
    return fake.uploads.get(String(fileUrl).split('/files/')[1] ?? '');
  }

  return {
    media,
    openApp,
    get fake() {
      return fake;
    },
    /** An app whose fal engine talks to the fake and serves every feature fal offers. */
    app: (extra: Record<string, string> = {}) =>
      openApp({
        env: {
          FAL_KEY: 'test-key',
          FAL_QUEUE_URL: fake.url,
          FAL_STORAGE_URL: fake.url,
          ENGINES: FAL_FEATURES.map((f) => `${f}=fal`).join(','),
          ...extra,
        },
      }),
    /** An engine configuration that talks to the fake. */
    falConfig: (extra: Partial<FalConfig> = {}): FalConfig => ({
      key: 'test-key',
      queueUrl: fake.url,
      storageUrl: fake.url,
      webhookBaseUrl: null,
      ...extra,
    }),
    submitText: (t: TasksTestApp, apiKey: string, prompt = 'a fox in snow') =>
      submitTool(t, apiKey, 'text2video', { prompt }),
    submitted,
    uploaded,
  };
}
