// fal.ai adapter: queue API (submit, status, result, cancel, webhook), model ids and inputs per feature, outputs downloaded.
import { FAL_MODELS, PROVIDER_RETRY } from '../../../src/lib/spec/engines';
import type { Feature, MediaKind } from '../../../src/lib/spec/tasks';
import { EngineInputError, type Engine, type EngineContext, type EngineResult } from '../types';
import { sniffMedia } from '../../media/sniff';
import { waitForHook } from './hooks';
import { download, json, providerFetch, ProviderError } from './http';

export interface FalConfig {
  key: string;
  queueUrl: string;
  storageUrl: string;
  /** Base of our webhook route (…/engine-hooks); null when fal cannot reach us. */
  webhookBaseUrl: string | null;
}

type Input = Record<string, unknown>;
const PROVIDER = 'fal.ai';

/** Reachable by fal only when public: our own localhost media must be uploaded to fal storage first. */
function isPublic(url: string): boolean {
  const host = new URL(url).hostname;
  return !/^(localhost|127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|\[?::1\]?$|0\.0\.0\.0)/.test(host);
}

export function falEngine(c: FalConfig): Engine {
  const auth = { authorization: `Key ${c.key}` };

  /** fal storage: initiate an upload, PUT the bytes, use the file URL it answers. */
  async function upload(ctx: EngineContext, url: string, kinds: readonly MediaKind[]): Promise<string> {
    const media = await ctx.readInput(url, kinds);
    if (isPublic(url)) return url;
    const init = await json<{ upload_url?: string; file_url?: string }>(
      await providerFetch({
        provider: PROVIDER,
        url: `${c.storageUrl}/storage/upload/initiate`,
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ content_type: media.mime, file_name: `${ctx.taskId}.${media.mime.split('/')[1]}` }),
        signal: ctx.signal,
      }),
      PROVIDER,
    );
    if (!init.upload_url || !init.file_url) throw new ProviderError(`${PROVIDER} sent a malformed upload answer`);
    await providerFetch({ provider: PROVIDER, url: init.upload_url, method: 'PUT', headers: { 'content-type': media.mime }, body: new Uint8Array(media.data), signal: ctx.signal });
    return init.file_url;
  }

  /** Our stored input → the model's input fields (from each model's page in fal's docs). */
  async function toFal(feature: Feature, i: Input, ctx: EngineContext): Promise<{ model: string; body: Input }> {
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const image = str(i.imageUrl) ?? str(i.imgUrl) ?? str(i.image) ?? str(i.photoUrl);
    const resolution = str(i.resolution) === '480p' ? '480p' : '720p';
    switch (feature) {
      case 'text-to-video':
      case 'wan-text-to-video':
        return { model: FAL_MODELS.textToVideo, body: { prompt: i.prompt, resolution, ...(i.negativePrompt ? { negative_prompt: i.negativePrompt } : {}), ...(typeof i.seed === 'number' ? { seed: i.seed } : {}) } };
      case 'image-to-video':
      case 'wan-image-to-video':
      case 'character-to-video':
        if (!image) throw new EngineInputError(`${PROVIDER} needs an image for ${feature} (a sample model is only offered by the preview engine)`);
        return { model: FAL_MODELS.imageToVideo, body: { prompt: i.prompt, image_url: await upload(ctx, image, ['image']), resolution } };
      case 'lipsync':
      case 'talking-face': {
        const video = str(i.srcVideoUrl) ?? str(i.videoUrl);
        if (!video || !str(i.audioUrl)) throw new EngineInputError('lip sync needs a video and an audio');
        return { model: FAL_MODELS.lipsync, body: { video_url: await upload(ctx, video, ['video']), audio_url: await upload(ctx, str(i.audioUrl)!, ['audio']) } };
      }
      case 'talking-image':
        if (!image || !str(i.audioUrl)) throw new EngineInputError('talking image needs a photo and an audio');
        return { model: FAL_MODELS.talkingImage, body: { source_image_url: await upload(ctx, image, ['image']), driven_audio_url: await upload(ctx, str(i.audioUrl)!, ['audio']) } };
      case 'tryon-clothes': {
        const garment = str(i.onePieceUrl) ?? str(i.upperUrl) ?? str(i.lowerUrl);
        if (!str(i.modelImageUrl) || !garment) throw new EngineInputError('try-on needs a model image and a garment');
        return { model: FAL_MODELS.tryOn, body: { human_image_url: await upload(ctx, str(i.modelImageUrl)!, ['image']), garment_image_url: await upload(ctx, garment, ['image']) } };
      }
      default:
        throw new EngineInputError(`${PROVIDER} does not serve ${feature} here`);
    }
  }

  /** fal answers { video: { url } } or { image: { url } } or { images: [{ url }] }. */
  function outputUrls(result: Record<string, unknown>): Array<{ url: string; kind: MediaKind }> {
    const urls: Array<{ url: string; kind: MediaKind }> = [];
    const file = (v: unknown) => (v && typeof v === 'object' && typeof (v as { url?: unknown }).url === 'string' ? (v as { url: string }).url : null);
    const video = file(result.video);
    if (video) urls.push({ url: video, kind: 'video' });
    const image = file(result.image);
    if (image) urls.push({ url: image, kind: 'image' });
    if (Array.isArray(result.images)) for (const im of result.images) if (file(im)) urls.push({ url: file(im)!, kind: 'image' });
    return urls;
  }

  return {
    name: 'fal',
    features: ['text-to-video', 'wan-text-to-video', 'image-to-video', 'wan-image-to-video', 'character-to-video', 'lipsync', 'talking-face', 'talking-image', 'tryon-clothes'],
    async run(feature, input, ctx): Promise<EngineResult> {
      const { model, body } = await toFal(feature, (input ?? {}) as Input, ctx);
      const hookKey = `fal/${ctx.taskId}`;
      const hook = c.webhookBaseUrl ? `?fal_webhook=${encodeURIComponent(`${c.webhookBaseUrl}/engine-hooks/${hookKey}`)}` : '';
      const submitted = await json<{ request_id?: string; status_url?: string; response_url?: string; cancel_url?: string }>(
        await providerFetch({ provider: PROVIDER, url: `${c.queueUrl}/${model}${hook}`, method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: ctx.signal }),
        PROVIDER,
      );
      if (!submitted.request_id) throw new ProviderError(`${PROVIDER} sent a malformed answer: no request_id`);
      // The URLs fal answers are authoritative (the app id may differ from the model path for sub-paths).
      const base = `${c.queueUrl}/${model}/requests/${submitted.request_id}`;
      const statusUrl = submitted.status_url ?? `${base}/status`;
      const responseUrl = submitted.response_url ?? base;
      const cancelUrl = submitted.cancel_url ?? `${base}/cancel`;
      const cancel = () => {
        // Best effort: the task is already finished on our side (refunded by the service).
        void fetch(cancelUrl, { method: 'PUT', headers: auth, signal: AbortSignal.timeout(PROVIDER_RETRY.requestTimeoutMs) }).catch(() => {});
      };
      ctx.signal.addEventListener('abort', cancel, { once: true });
      try {
        let delay: number = PROVIDER_RETRY.pollStartMs;
        for (;;) {
          const status = await json<{ status?: string; queue_position?: number; error?: string }>(
            await providerFetch({ provider: PROVIDER, url: `${statusUrl}${statusUrl.includes('?') ? '&' : '?'}logs=0`, headers: auth, signal: ctx.signal }),
            PROVIDER,
          );
          if (status.status === 'COMPLETED') break;
          if (status.status === 'IN_PROGRESS') await ctx.progress(50);
          else if (status.status === 'IN_QUEUE') await ctx.progress(10);
          else throw new ProviderError(`${PROVIDER} sent an unknown job status: ${String(status.status)}`);
          await waitForHook(hookKey, delay, ctx.signal);
          delay = Math.min(PROVIDER_RETRY.pollMaxMs, delay * PROVIDER_RETRY.pollFactor);
        }
        const resultRes = await fetch(responseUrl, { headers: auth, signal: ctx.signal });
        const result = await json(resultRes, PROVIDER);
        // A failed job answers its result URL with an error status and a detail (e.g. a rejected input).
        if (!resultRes.ok) {
          const why = typeof result.detail === 'string' ? result.detail : JSON.stringify(result.detail ?? result).slice(0, 300);
          if (resultRes.status === 422) throw new EngineInputError(`${PROVIDER} refused the input: ${why}`);
          throw new ProviderError(`${PROVIDER} job failed: ${why}`);
        }
        const urls = outputUrls(result);
        if (urls.length === 0) throw new ProviderError(`${PROVIDER} sent a malformed answer: the result has no video or image`);
        const outputs = [];
        for (const u of urls) {
          const file = await download(PROVIDER, u.url, ctx.signal);
          const mime = file.mime && file.mime !== 'application/octet-stream' ? file.mime : u.kind === 'video' ? 'video/mp4' : 'image/png';
          // Per-second features are settled on the real length, read from the file's own header.
          outputs.push({ kind: u.kind, mime, data: file.data, durationS: u.kind === 'video' ? (sniffMedia(file.data)?.durationS ?? null) : null });
        }
        return { outputs };
      } finally {
        ctx.signal.removeEventListener('abort', cancel);
      }
    },
  };
}
