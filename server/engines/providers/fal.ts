// fal.ai adapter: one queue-job runner (submit, status with webhook wake-up, result, cancel, download) behind every feature and the lip-sync chain.
import { FAL_IMAGE_SIZES, FAL_MATTING_BACKGROUND, FAL_MODELS, FAL_RETRY, FAL_WAN, PROVIDER_RETRY } from '../../../src/lib/spec';
import type { Feature, MediaKind } from '../../../src/lib/spec';
import { EngineInputError, EngineUnsupportedError, type Engine, type EngineContext, type EngineOutput, type EngineResult, type LipSync, type MediaBytes } from '../types';
import type { ProviderCost } from '../provider-cost';
import { probeMedia } from '../../media/probe';
import { createLogger } from '../../log';
import { falFetch, falDetail, submitRefusal } from './fal-request';
import { falBillableUnits, falCost } from './fal-cost';
import { cancelFalJob, earlierFalJob, FAL_JOB_NAMES, unknownFalJob, type FalJobRef } from './fal-jobs';
import { falUpload } from './fal-storage';
import { waitForHook } from './hooks';
import { download, isPublicUrl, json, providerFetch, ProviderError } from './http';

export interface FalConfig {
  key: string;
  queueUrl: string;
  storageUrl: string;
  /** Base of our webhook route (…/engine-hooks); null when fal cannot reach us. */
  webhookBaseUrl: string | null;
  /** Status polling schedule; PROVIDER_RETRY's by default (a webhook wakes the poller earlier). */
  poll?: { startMs: number; factor: number; maxMs: number };
}

type Input = Record<string, unknown>;
/** One fal request: the model's endpoint id and its input fields. */
interface FalJob {
  model: string;
  body: Input;
}
/** The request id and URLs fal answers a submit with; they are authoritative (an app id may differ from the model path). */
type JobUrls = FalJobRef;
/** Makes an input URL reachable by fal (uploading our private media) after checking it is one of `kinds`. */
type Upload = (url: string, kinds: readonly MediaKind[]) => Promise<string>;

const PROVIDER = 'fal.ai';
/** Operator lines of a best-effort cancel (the fal adapter has no logger of its own). */
const warn = (message: string, fields: Record<string, unknown>) => createLogger('warn').warn(message, fields);
const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
const auth = (c: FalConfig) => ({ authorization: `Key ${c.key}` });

/** Our bytes into fal storage (fal-storage.ts: one PUT, or multipart above 90 MB); the answer is the file's URL. */
function uploadBytes(c: FalConfig, media: MediaBytes, fileName: string, signal: AbortSignal): Promise<string> {
  return falUpload(c, { data: media.data, mime: media.mime, name: fileName }, signal);
}

const fileName = (ctx: EngineContext, role: string, mime: string) => `${ctx.taskId}-${role}.${(mime.split('/')[1] ?? 'bin').replace(/[^a-z0-9]/gi, '')}`;

/** Reads (and so checks) an input, then hands fal a URL it can fetch: outside URLs as they are, ours uploaded. */
function uploader(c: FalConfig, ctx: EngineContext): Upload {
  let n = 0;
  return async (url, kinds) => {
    const media = await ctx.readInput(url, kinds);
    if (isPublicUrl(url)) return url;
    return uploadBytes(c, media, fileName(ctx, `input${n++}`, media.mime), ctx.signal);
  };
}

/** Our stored inputs → each model's input fields (FAL_MODELS names the page each comes from). */
const JOBS: Partial<Record<Feature, (i: Input, up: Upload) => Promise<FalJob>>> = {
  'text-to-video': async (i) => ({
    model: FAL_MODELS.textToVideo,
    body: { prompt: i.prompt, resolution: resolution(i), ...(str(i.negativePrompt) ? { negative_prompt: i.negativePrompt } : {}), ...(typeof i.seed === 'number' ? { seed: i.seed } : {}) },
  }),
  'image-to-video': async (i, up) => {
    const image = imageOf(i);
    if (!image && str(i.modelId)) throw new EngineUnsupportedError(`${PROVIDER} cannot animate a sample model (only the preview engine draws them); give an image`);
    if (!image) throw new EngineInputError(`${PROVIDER} needs an image to animate`);
    return { model: FAL_MODELS.imageToVideo, body: { prompt: i.prompt, image_url: await up(image, ['image']), resolution: resolution(i) } };
  },
  lipsync: async (i, up) => {
    const video = str(i.srcVideoUrl) ?? str(i.videoUrl);
    if (!video || !str(i.audioUrl)) throw new EngineInputError('lip sync needs a video and an audio');
    return { model: FAL_MODELS.lipsync, body: { video_url: await up(video, ['video']), audio_url: await up(str(i.audioUrl)!, ['audio']) } };
  },
  'talking-image': async (i, up) => {
    const image = imageOf(i);
    if (!image && str(i.modelId)) throw new EngineUnsupportedError(`${PROVIDER} cannot animate a sample model (only the preview engine draws them); give a photo`);
    if (!image || !str(i.audioUrl)) throw new EngineInputError('talking image needs a photo and an audio');
    return { model: FAL_MODELS.talkingImage, body: { source_image_url: await up(image, ['image']), driven_audio_url: await up(str(i.audioUrl)!, ['audio']) } };
  },
  'tryon-clothes': async (i, up) => {
    const garment = str(i.onePieceUrl) ?? str(i.upperUrl) ?? str(i.lowerUrl);
    if (!str(i.modelImageUrl) || !garment) throw new EngineInputError('try-on needs a model image and a garment');
    return { model: FAL_MODELS.tryOn, body: { human_image_url: await up(str(i.modelImageUrl)!, ['image']), garment_image_url: await up(garment, ['image']) } };
  },
  'image-generation': async (i) => ({
    model: FAL_MODELS.imageGeneration,
    body: {
      prompt: i.prompt,
      num_images: typeof i.count === 'number' ? i.count : 1,
      image_size: FAL_IMAGE_SIZES[(str(i.aspectRatio) ?? '1:1') as keyof typeof FAL_IMAGE_SIZES] ?? FAL_IMAGE_SIZES['1:1'],
      ...(typeof i.seed === 'number' ? { seed: i.seed } : {}),
    },
  }),
  erase: async (i, up) => {
    if (!str(i.imageUrl) || !str(i.maskUrl)) throw new EngineInputError('erase needs an image and a mask');
    return { model: FAL_MODELS.erase, body: { image_url: await up(str(i.imageUrl)!, ['image']), mask_url: await up(str(i.maskUrl)!, ['image']) } };
  },
  'face-swap': async (i, up) => {
    if (!str(i.imageUrl) || !str(i.faceImageUrl)) throw new EngineInputError('face swap needs a picture and a face');
    // Ours: imageUrl is the picture to change, faceImageUrl the face to put in; fal's: target_image_url, source_face_url.
    return { model: FAL_MODELS.faceSwap, body: { target_image_url: await up(str(i.imageUrl)!, ['image']), source_face_url: await up(str(i.faceImageUrl)!, ['image']) } };
  },
  restore: async (i, up) => {
    if (!str(i.imageUrl)) throw new EngineInputError('restore needs a photo');
    return { model: FAL_MODELS.restore, body: { image_url: await up(str(i.imageUrl)!, ['image']) } };
  },
  'video-matting': async (i, up) => {
    if (!str(i.videoUrl)) throw new EngineInputError('video matting needs a video');
    return { model: FAL_MODELS.videoMatting, body: { video_url: await up(str(i.videoUrl)!, ['video']), background_color: [...FAL_MATTING_BACKGROUND] } };
  },
};
// Features that are the same model call under another name (Wan variants, the talking-face tool).
JOBS['wan-text-to-video'] = JOBS['text-to-video'];
JOBS['wan-image-to-video'] = JOBS['image-to-video'];
JOBS['character-to-video'] = JOBS['image-to-video'];
JOBS['talking-face'] = JOBS.lipsync;

/** The still of the image-to-video and talking tools (each tool names it its own way). */
function imageOf(i: Input): string | undefined {
  return str(i.imageUrl) ?? str(i.imgUrl) ?? str(i.image) ?? str(i.photoUrl);
}

/** Wan's resolution for the one asked (720p when none is given, as the public text2video/img2video carry none). */
function resolution(i: Input): '480p' | '720p' {
  const asked = str(i.resolution) ?? '720p';
  const made = (FAL_WAN.resolutions as Record<string, '480p' | '720p' | undefined>)[asked];
  const durationS = typeof i.durationS === 'number' ? i.durationS : 0;
  if (!made || durationS > FAL_WAN.maxDurationS) {
    throw new EngineUnsupportedError(`${PROVIDER}'s Wan 2.1 makes clips of up to ${FAL_WAN.maxDurationS} s at 480p or 720p, not ${durationS ? `${durationS} s at ` : ''}${asked}`);
  }
  return made;
}

/**
 * The app part of an endpoint id, where fal serves a job's status, result and cancel: `owner/alias`, the first two
 * segments (a namespaced id such as workflows/owner/alias keeps three), as fal-ai/fal-js parseEndpointId builds them
 * (libs/client/src/utils.ts and queue.ts status/result/cancel, commit 381105e138b85502b528fb8f6c16d909e30e462a).
 */
export function falAppPath(model: string): string {
  const parts = model.split('/');
  return parts.slice(0, (FAL_RETRY.namespaces as readonly string[]).includes(parts[0] ?? '') ? 3 : 2).join('/');
}

/**
 * Queues the job; the webhook (when fal can reach us) names our task so the hook wakes this run's poller. Sent again
 * only when fal certainly did not take it (fal-request.ts): a second submit could start a second paid job.
 */
async function submit(c: FalConfig, job: FalJob, hookKey: string, signal: AbortSignal): Promise<JobUrls> {
  const hook = c.webhookBaseUrl ? `?fal_webhook=${encodeURIComponent(`${c.webhookBaseUrl}/engine-hooks/${hookKey}`)}` : '';
  const res = await falFetch({ kind: 'submit', url: `${c.queueUrl}/${job.model}${hook}`, method: 'POST', headers: { ...auth(c), 'content-type': 'application/json' }, body: JSON.stringify(job.body), signal });
  if (!res.ok) throw submitRefusal(res.status, await res.text().catch(() => ''));
  const answer = await json<{ request_id?: string; status_url?: string; response_url?: string; cancel_url?: string }>(res, PROVIDER);
  if (!answer.request_id) throw new ProviderError(`${PROVIDER} sent a malformed answer: no request_id`);
  const base = `${c.queueUrl}/${falAppPath(job.model)}/requests/${answer.request_id}`;
  return { requestId: answer.request_id, status: answer.status_url ?? `${base}/status`, response: answer.response_url ?? base, cancel: answer.cancel_url ?? `${base}/cancel` };
}

/** Follows the job until COMPLETED: polls with backoff, and a webhook for `hookKey` cuts a wait short. */
async function waitUntilDone(c: FalConfig, urls: JobUrls, hookKey: string, ctx: EngineContext, missing?: () => Error): Promise<void> {
  const poll = c.poll ?? { startMs: PROVIDER_RETRY.pollStartMs, factor: PROVIDER_RETRY.pollFactor, maxMs: PROVIDER_RETRY.pollMaxMs };
  let delay = poll.startMs;
  for (;;) {
    const status = await json<{ status?: string }>(
      await providerFetch({ provider: PROVIDER, url: `${urls.status}${urls.status.includes('?') ? '&' : '?'}logs=0`, headers: auth(c), signal: ctx.signal, refusal: (code) => (code === 404 ? missing?.() : undefined) }),
      PROVIDER,
    );
    if (status.status === 'COMPLETED') return;
    if (status.status === 'IN_PROGRESS') await ctx.progress(50);
    else if (status.status === 'IN_QUEUE') await ctx.progress(10);
    else throw new ProviderError(`${PROVIDER} sent an unknown job status: ${String(status.status)}`);
    await waitForHook(hookKey, delay, ctx.signal);
    delay = Math.min(poll.maxMs, delay * poll.factor);
  }
}

/**
 * The job's result, read again with backoff on a passing failure (FAL_RETRY.readStatuses, timeouts) so a finished,
 * paid job is not lost to one 502; a failed job answers it with an error status and a detail (e.g. a rejected input).
 */
async function readResult(c: FalConfig, urls: JobUrls, signal: AbortSignal, missing?: () => Error): Promise<{ result: Input; units: number | null }> {
  const res = await falFetch({ kind: 'read', url: urls.response, headers: auth(c), signal });
  if (res.ok) return { result: await json<Input>(res, PROVIDER), units: falBillableUnits(res.headers) };
  if (res.status === 404 && missing) throw missing();
  const why = falDetail(await res.text().catch(() => ''));
  if (res.status === 422) throw new EngineInputError(`${PROVIDER} refused the input: ${why}`);
  throw new ProviderError(`${PROVIDER} job failed: ${why}`);
}

/** fal answers { video: { url } }, { image: { url } } or { images: [{ url }, …] }. */
function outputFiles(result: Input): Array<{ url: string; kind: MediaKind }> {
  const url = (v: unknown) => (v && typeof v === 'object' && typeof (v as { url?: unknown }).url === 'string' ? (v as { url: string }).url : null);
  const files: Array<{ url: string; kind: MediaKind }> = [];
  if (url(result.video)) files.push({ url: url(result.video)!, kind: 'video' });
  if (url(result.image)) files.push({ url: url(result.image)!, kind: 'image' });
  if (Array.isArray(result.images)) for (const im of result.images) if (url(im)) files.push({ url: url(im)!, kind: 'image' });
  if (files.length === 0) throw new ProviderError(`${PROVIDER} sent a malformed answer: the result has no video or image`);
  return files;
}

/** Downloads each output; its type and (for video) its real length are read from its own bytes. */
async function downloadOutputs(files: Array<{ url: string; kind: MediaKind }>, signal: AbortSignal): Promise<EngineOutput[]> {
  const outputs: EngineOutput[] = [];
  for (const f of files) {
    const file = await download(PROVIDER, f.url, signal);
    const sniffed = await probeMedia(file.data, { signal });
    const header = file.mime && file.mime !== 'application/octet-stream' ? file.mime : null;
    const mime = sniffed?.mime ?? header ?? (f.kind === 'video' ? 'video/mp4' : 'image/png');
    // Per-second features are settled on this length.
    outputs.push({ kind: f.kind, mime, data: file.data, durationS: f.kind === 'video' ? (sniffed?.durationS ?? null) : null });
  }
  return outputs;
}

/**
 * The one job runner: submit → status (webhook wake-up) → result → download. The job is kept with the task as soon as
 * fal accepted it, and a later attempt (restart, a drain's hand-back, a takeover) follows that job instead of paying for
 * another. The run never cancels it itself: an abort may be a hand-back; the task layer cancels it through cancelJob
 * whenever the task ends without its result.
 */
async function runJob(c: FalConfig, job: FalJob, ctx: EngineContext, name: string): Promise<{ outputs: EngineOutput[]; cost: ProviderCost }> {
  const hookKey = `fal/${ctx.taskId}`;
  const resumed = await earlierFalJob(ctx, name);
  let urls: JobUrls;
  if (resumed) urls = resumed;
  else {
    urls = await submit(c, job, hookKey, ctx.signal);
    await ctx.providerJobs.record(name, urls);
  }
  const missing = resumed ? () => unknownFalJob(resumed) : undefined;
  await waitUntilDone(c, urls, hookKey, ctx, missing);
  const { result, units } = await readResult(c, urls, ctx.signal, missing);
  const outputs = await downloadOutputs(outputFiles(result), ctx.signal);
  return { outputs, cost: falCost(job.model, units, { resolution: job.body.resolution, outputs: outputs.length }) };
}

export function falEngine(c: FalConfig): Engine {
  return {
    name: 'fal',
    features: Object.keys(JOBS) as Feature[],
    // The advanced settings the JOBS above pass on (negative_prompt, seed, image_size).
    options: { 'text-to-video': ['negativePrompt', 'seed'], 'image-generation': ['aspectRatio', 'seed'] },
    async run(feature, input, ctx): Promise<EngineResult> {
      const build = JOBS[feature];
      if (!build) throw new EngineInputError(`${PROVIDER} does not serve ${feature} here`);
      const { outputs, cost } = await runJob(c, await build((input ?? {}) as Input, uploader(c, ctx)), ctx, FAL_JOB_NAMES.job);
      // Charged per image fal actually made, which may be fewer than asked for.
      return { outputs, providerCosts: [cost], ...(feature === 'image-generation' ? { measured: { count: outputs.length } } : {}) };
    },
    // A job of a task that ended without its result (canceled, failed, timed out), from the stored reference.
    cancelJob: (_name, ref) => cancelFalJob(c.key, ref, warn),
  };
}

/** Lip sync from bytes (dubbing chains it): both files go to fal storage, then the lip-sync model runs on them. */
export function falLipSync(c: FalConfig): LipSync {
  const lipSync: LipSync = async (video, audio, ctx) => {
    const videoUrl = await uploadBytes(c, video, fileName(ctx, 'video', video.mime), ctx.signal);
    const audioUrl = await uploadBytes(c, audio, fileName(ctx, 'audio', audio.mime), ctx.signal);
    const { outputs, cost } = await runJob(c, { model: FAL_MODELS.lipsync, body: { video_url: videoUrl, audio_url: audioUrl } }, ctx, FAL_JOB_NAMES.lipSync);
    const out = outputs.find((o) => o.kind === 'video');
    if (!out) throw new ProviderError(`${PROVIDER} sent a malformed answer: the lip-sync result has no video`);
    return { ...out, providerCost: cost };
  };
  // The chaining engine records the job under its own name and passes its cancel here.
  lipSync.cancelJob = (_name, ref) => cancelFalJob(c.key, ref, warn);
  return lipSync;
}
