// A typed client for the public API (one method per OpenAPI operationId), for Node 18+ and browsers.
import type * as T from './types';
import { STREAM_PATH, taskStreams } from './stream';

export class DreamApiError extends Error {
  constructor(
    message: string,
    /** The envelope code (see the error catalogue), or null when no answer arrived. */
    readonly code: number | null,
    /** The HTTP status, or 0 when no answer arrived. */
    readonly status: number,
    /** Seconds to wait before retrying, from Retry-After on 429. */
    readonly retryAfterS: number | null = null,
  ) {
    super(message);
    this.name = 'DreamApiError';
  }
}

export interface ClientOptions {
  apiKey: string;
  /** The API host, e.g. https://api.example.com (no trailing path). */
  baseUrl: string;
  fetch?: typeof fetch;
}

export interface SubmitOptions {
  /** Makes the submit safe to retry: the same key and body answer with the same task, charged once. */
  idempotencyKey?: string;
}

/** Every operation of the document, by operationId: the SDK's tests check this against GET /api/openapi.json. */
export const OPERATIONS = {
  ttsCommon: { method: 'post', path: '/api/async/do_tts_common' },
  ttsPro: { method: 'post', path: '/api/async/do_tts_pro' },
  voiceClone: { method: 'post', path: '/api/async/voice_clone' },
  ttsClone: { method: 'post', path: '/api/async/do_tts_clone' },
  dialogue: { method: 'post', path: '/api/async/dialogue' },
  talkingFace: { method: 'post', path: '/api/async/talking_face' },
  lipsync: { method: 'post', path: '/api/async/lipsync' },
  talkingImage: { method: 'post', path: '/api/async/talking_image' },
  videoTranslate: { method: 'post', path: '/api/async/video_translate/2.0' },
  wanTextToVideo: { method: 'post', path: '/api/async/wan/text_to_video/2.1' },
  wanImageToVideo: { method: 'post', path: '/api/async/wan/image_to_video/2.1' },
  imageToVideo: { method: 'post', path: '/api/async/img2video' },
  textToVideo: { method: 'post', path: '/api/async/text2video' },
  characterToVideo: { method: 'post', path: '/api/async/character2video' },
  tryonClothes: { method: 'post', path: '/api/async/tryon_clothes' },
  imageGeneration: { method: 'post', path: '/api/async/image_generation' },
  erase: { method: 'post', path: '/api/async/erase' },
  faceSwap: { method: 'post', path: '/api/async/face_swap' },
  restore: { method: 'post', path: '/api/async/restore' },
  videoMatting: { method: 'post', path: '/api/async/video_matting' },
  sttCommon: { method: 'post', path: '/api/async/do_stt' },
  sttPro: { method: 'post', path: '/api/async/do_stt_pro' },
  getAsyncResult: { method: 'post', path: '/api/getAsyncResult' },
  streamAsyncResult: { method: 'get', path: STREAM_PATH },
  cancelAsyncTask: { method: 'post', path: '/api/cancelAsyncTask' },
  remainingCredits: { method: 'post', path: '/api/remaining_credits' },
  webhookSecret: { method: 'post', path: '/api/webhook_secret' },
  getUploadPolicy: { method: 'post', path: '/api/file/v1/get_policy' },
  uploadFile: { method: 'post', path: '/api/file/v1/upload' },
  finishUpload: { method: 'post', path: '/api/file/v1/policy_upload_finish' },
  keyCaps: { method: 'post', path: '/api/keys/caps' },
  setKeyCaps: { method: 'post', path: '/api/keys/set_caps' },
  webhookDeliveries: { method: 'post', path: '/api/webhooks/deliveries' },
  redeliverWebhook: { method: 'post', path: '/api/webhooks/redeliver' },
  usageExport: { method: 'post', path: '/api/usage/export' },
  openApiDocument: { method: 'get', path: '/api/openapi.json' },
} as const;
export type OperationId = keyof typeof OPERATIONS;

interface Envelope<D> {
  code: number;
  message?: string;
  msg?: string;
  data: D;
}

export function createDreamApiClient(options: ClientOptions) {
  if (!options.apiKey) throw new TypeError('apiKey is required');
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new TypeError(`baseUrl must be an absolute URL, got ${JSON.stringify(options.baseUrl)}`);
  }
  const origin = base.href.replace(/\/$/, '');
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);

  async function read<D>(res: Response): Promise<D> {
    let body: Envelope<D>;
    try {
      body = (await res.json()) as Envelope<D>;
    } catch {
      throw new DreamApiError(`HTTP ${res.status}: the answer is not JSON`, null, res.status);
    }
    if (body.code !== 0) {
      const retry = res.headers.get('retry-after');
      throw new DreamApiError(
        body.message ?? body.msg ?? `HTTP ${res.status}`,
        body.code ?? null,
        res.status,
        retry ? Number(retry) : null,
      );
    }
    return body.data;
  }

  async function post<D>(id: OperationId, body: object = {}, headers: Record<string, string> = {}): Promise<D> {
    let res: Response;
    try {
      res = await doFetch(origin + OPERATIONS[id].path, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    } catch (e) {
      throw new DreamApiError(
        `The request did not reach the API: ${e instanceof Error ? e.message : String(e)}`,
        null,
        0,
      );
    }
    return read<D>(res);
  }

  const submit =
    <B extends object>(id: OperationId) =>
    (body: B, o: SubmitOptions = {}) =>
      post<T.Submitted>(id, body, o.idempotencyKey ? { 'idempotency-key': o.idempotencyKey } : {});

  const client = {
    ttsCommon: submit<T.TtsRequest>('ttsCommon'),
    ttsPro: submit<T.TtsRequest>('ttsPro'),
    voiceClone: submit<T.VoiceCloneRequest>('voiceClone'),
    ttsClone: submit<T.TtsCloneRequest>('ttsClone'),
    dialogue: submit<T.DialogueRequest>('dialogue'),
    talkingFace: submit<T.LipsyncRequest>('talkingFace'),
    lipsync: submit<T.LipsyncRequest>('lipsync'),
    talkingImage: submit<T.TalkingImageRequest>('talkingImage'),
    videoTranslate: submit<T.VideoTranslateRequest>('videoTranslate'),
    wanTextToVideo: submit<T.WanTextToVideoRequest>('wanTextToVideo'),
    wanImageToVideo: submit<T.WanImageToVideoRequest>('wanImageToVideo'),
    imageToVideo: submit<T.ImageToVideoRequest>('imageToVideo'),
    textToVideo: submit<T.TextToVideoRequest>('textToVideo'),
    characterToVideo: submit<T.CharacterToVideoRequest>('characterToVideo'),
    tryonClothes: submit<T.TryonRequest>('tryonClothes'),
    imageGeneration: submit<T.ImageGenerationRequest>('imageGeneration'),
    erase: submit<T.EraseRequest>('erase'),
    faceSwap: submit<T.FaceSwapRequest>('faceSwap'),
    restore: submit<T.RestoreRequest>('restore'),
    videoMatting: submit<T.VideoMattingRequest>('videoMatting'),
    sttCommon: submit<T.SttRequest>('sttCommon'),
    sttPro: submit<T.SttRequest>('sttPro'),
    getAsyncResult: (body: T.TaskIdRequest) => post<T.TaskResult>('getAsyncResult', body),
    cancelAsyncTask: (body: T.TaskIdRequest) => post<T.TaskResult>('cancelAsyncTask', body),
    remainingCredits: () => post<T.RemainingCredits>('remainingCredits'),
    webhookSecret: (body: T.WebhookSecretRequest = {}) => post<T.WebhookSecret>('webhookSecret', body),
    getUploadPolicy: (body: T.UploadPolicyRequest = {}) => post<T.UploadPolicy>('getUploadPolicy', body),
    /** Step 2 of the upload: the policy's host and fields authorise it, not the key. */
    async uploadFile(policy: T.UploadPolicy, file: Blob, filename = 'upload'): Promise<T.UploadAck> {
      const form = new FormData();
      for (const [k, v] of Object.entries(policy.fields)) form.append(k, v);
      form.append('file', file, filename);
      let res: Response;
      try {
        res = await doFetch(policy.host, { method: 'POST', body: form });
      } catch (e) {
        throw new DreamApiError(
          `The upload did not reach the API: ${e instanceof Error ? e.message : String(e)}`,
          null,
          0,
        );
      }
      // A storage bucket (the server's, when it uses one) answers 204, or XML, without our envelope.
      if (!(res.headers.get('content-type') ?? '').includes('json')) {
        if (res.ok) return { reqId: policy.reqId };
        const reason = /<Message>([^<]*)<\/Message>/.exec(await res.text())?.[1];
        throw new DreamApiError(`The storage refused the upload: ${reason ?? `HTTP ${res.status}`}`, null, res.status);
      }
      return read<T.UploadAck>(res);
    },
    finishUpload: (body: T.FinishUploadRequest) => post<T.UploadedFile>('finishUpload', body),
    keyCaps: () => post<T.KeyCapsList>('keyCaps'),
    setKeyCaps: (body: T.SetKeyCapsRequest) => post<T.KeyCaps>('setKeyCaps', body),
    webhookDeliveries: (body: T.WebhookDeliveriesRequest = {}) => post<T.WebhookAttemptPage>('webhookDeliveries', body),
    redeliverWebhook: (body: T.RedeliverRequest) => post<T.WebhookAttempt>('redeliverWebhook', body),
    /** Tasks and credit movements of a range of UTC days (the server streams them; this reads the whole answer). */
    usageExport: (body: T.UsageExportRequest) => post<T.UsageExport>('usageExport', body),
    async openApiDocument(): Promise<Record<string, unknown>> {
      const res = await doFetch(origin + OPERATIONS.openApiDocument.path);
      if (!res.ok) throw new DreamApiError(`HTTP ${res.status}`, null, res.status);
      return (await res.json()) as Record<string, unknown>;
    },
    /** The three upload steps in one call; answers the URL to pass to a tool. */
    async upload(file: Blob, filename: string, scene: T.UploadScene = 'any'): Promise<T.UploadedFile> {
      const policy = await client.getUploadPolicy({ scene });
      await client.uploadFile(policy, file, filename);
      return client.finishUpload({ reqId: policy.reqId });
    },
    /** Polls a task until it finishes (status 3 or 4) or the deadline passes. */
    async waitForTask(taskId: string, o: { intervalMs?: number; timeoutMs?: number } = {}): Promise<T.TaskResult> {
      const deadline = Date.now() + (o.timeoutMs ?? 10 * 60_000);
      for (;;) {
        const result = await client.getAsyncResult({ taskId });
        if (result.task.status >= 3) return result;
        if (Date.now() > deadline)
          throw new DreamApiError(`Task ${taskId} is still ${result.task.statusName}`, null, 0);
        await new Promise((r) => setTimeout(r, o.intervalMs ?? 1000));
      }
    },
    /** Live status (Server-Sent Events): each change of the task, or of every task of the account without taskId. */
    streamAsyncResult: (body: { taskId?: string } = {}, o?: Parameters<typeof live.stream>[1]) =>
      live.stream(body.taskId, o),
    /** The same stream by task id. */
    stream: (taskId?: string, o?: Parameters<typeof live.stream>[1]) => live.stream(taskId, o),
    /** Resolves once the task finished: through the stream, polling getAsyncResult when no stream can be had. */
    wait: (taskId: string, o?: Parameters<typeof live.wait>[1]) => live.wait(taskId, o),
  } satisfies Record<OperationId, unknown> & Record<string, unknown>;
  const live = taskStreams({ origin, apiKey: options.apiKey, fetch: doFetch, getAsyncResult: client.getAsyncResult });
  return client;
}

export type DreamApiClient = ReturnType<typeof createDreamApiClient>;
