// fal.ai adapter on fal's official client: one queue-job runner (submit, status with webhook wake-up, result, cancel,
// download) behind every feature and the lip-sync chain.
import { FAL_MODELS } from '../../../src/lib/product-rules';
import type { Feature, MediaKind } from '../../../src/lib/product-rules';
import {
  EngineInputError,
  type Engine,
  type EngineContext,
  type EngineOutput,
  type EngineResult,
  type LipSync,
  type MediaBytes,
} from '../types';
import type { ProviderCost } from '../provider-cost';
import { probeMedia } from '../../media/probe';
import { createLogger, type Logger } from '../../log';
import { falCost } from './fal-cost';
import { cancelFalJob, earlierFalJob, FAL_JOB_NAMES, unknownFalJob, type FalJobRef } from './fal-jobs';
import { readResult, submitJob, waitUntilDone, type FalJob, type FalQueueConfig } from './fal-queue';
import { JOBS, PROVIDER, type Input, type Upload } from './fal-inputs';
import { falUpload } from './fal-storage';
import { download, isPublicUrl, ProviderError } from './http';
import { outageTracker, type Outages } from './outages';

export { falAppPath } from './fal-queue';

/** The fal engine's settings: where fal is reached, the key, our webhook base and the polling schedule. */
export interface FalConfig extends FalQueueConfig {
  /**
   * Where what only operators should read goes (fal's account or capacity trouble); stderr at warn level when absent.
   */
  log?: Pick<Logger, 'warn'>;
  /** fal's outage state, shared by the engine and the lip-sync it lends ElevenLabs (one account, one outage). */
  outages?: Outages;
}

/** The configuration with its outage state: the one given, else a new one. */
export function withFalOutages(c: FalConfig): FalConfig & { outages: Outages } {
  return { ...c, outages: c.outages ?? outageTracker('fal', PROVIDER, c.log ?? createLogger('warn')) };
}

/** Operator lines of a best-effort cancel (the fal adapter has no logger of its own). */
const warn = (message: string, fields: Record<string, unknown>) => createLogger('warn').warn(message, fields);

/** Our bytes into fal storage (fal-storage.ts: one PUT, or multipart above 90 MB); the answer is the file's URL. */
function uploadBytes(c: FalConfig, media: MediaBytes, fileName: string, signal: AbortSignal): Promise<string> {
  return falUpload(c, { data: media.data, mime: media.mime, name: fileName }, signal);
}

const fileName = (ctx: EngineContext, role: string, mime: string) =>
  `${ctx.taskId}-${role}.${(mime.split('/')[1] ?? 'bin').replace(/[^a-z0-9]/gi, '')}`;

/** Reads (and so checks) an input, then hands fal a URL it can fetch: outside URLs as they are, ours uploaded. */
function uploader(c: FalConfig, ctx: EngineContext): Upload {
  let n = 0;
  return async (url, kinds) => {
    const media = await ctx.readInput(url, kinds);
    if (isPublicUrl(url)) return url;
    return uploadBytes(c, media, fileName(ctx, `input${n++}`, media.mime), ctx.signal);
  };
}

/** fal answers { video: { url } }, { image: { url } } or { images: [{ url }, …] }. */
function outputFiles(result: Input): Array<{ url: string; kind: MediaKind }> {
  const url = (v: unknown) =>
    v && typeof v === 'object' && typeof (v as { url?: unknown }).url === 'string' ? (v as { url: string }).url : null;
  const files: Array<{ url: string; kind: MediaKind }> = [];
  if (url(result.video)) files.push({ url: url(result.video)!, kind: 'video' });
  if (url(result.image)) files.push({ url: url(result.image)!, kind: 'image' });
  if (Array.isArray(result.images))
    for (const im of result.images) if (url(im)) files.push({ url: url(im)!, kind: 'image' });
  if (files.length === 0)
    throw new ProviderError(`${PROVIDER} sent a malformed answer: the result has no video or image`);
  return files;
}

/** Downloads each output; its type and (for video) its real length are read from its own bytes. */
async function downloadOutputs(
  files: Array<{ url: string; kind: MediaKind }>,
  signal: AbortSignal,
): Promise<EngineOutput[]> {
  const outputs: EngineOutput[] = [];
  for (const f of files) {
    const file = await download(PROVIDER, f.url, signal);
    const sniffed = await probeMedia(file.data, { signal });
    const header = file.mime && file.mime !== 'application/octet-stream' ? file.mime : null;
    const mime = sniffed?.mime ?? header ?? (f.kind === 'video' ? 'video/mp4' : 'image/png');
    // Per-second features are settled on this length.
    outputs.push({
      kind: f.kind,
      mime,
      data: file.data,
      durationS: f.kind === 'video' ? (sniffed?.durationS ?? null) : null,
    });
  }
  return outputs;
}

/**
 * The one job runner: submit → status (webhook wake-up) → result → download. The job is kept with the task as soon as
 * fal accepted it, and a later attempt (restart, a drain's hand-back, a takeover) follows that job instead of paying
 * for another. The run never cancels it itself: an abort may be a hand-back; the task layer cancels it through
 * cancelJob whenever the task ends without its result.
 */
async function runJob(
  c: FalConfig,
  job: FalJob,
  ctx: EngineContext,
  name: string,
): Promise<{ outputs: EngineOutput[]; cost: ProviderCost }> {
  const hookKey = `fal/${ctx.taskId}`;
  const resumed = await earlierFalJob(ctx, name);
  let ref: FalJobRef;
  if (resumed) ref = resumed;
  else {
    ref = await submitJob(c, job, hookKey, ctx.signal);
    await ctx.providerJobs.record(name, ref);
  }
  // A reference kept before the endpoint was stored belongs to this same model (the same feature's job).
  const followed = { ...ref, endpoint: ref.endpoint ?? job.model };
  const missing = resumed ? () => unknownFalJob(resumed) : undefined;
  await waitUntilDone(c, followed, hookKey, ctx, missing);
  const { result, units } = await readResult(c, followed, ctx.signal, missing);
  const outputs = await downloadOutputs(outputFiles(result), ctx.signal);
  return { outputs, cost: falCost(job.model, units, { resolution: job.body.resolution, outputs: outputs.length }) };
}

export function falEngine(config: FalConfig): Engine {
  const c = withFalOutages(config);
  return {
    name: 'fal',
    features: Object.keys(JOBS) as Feature[],
    // The advanced settings the JOBS above pass on (negative_prompt, seed, image_size).
    options: { 'text-to-video': ['negativePrompt', 'seed'], 'image-generation': ['aspectRatio', 'seed'] },
    async run(feature, input, ctx): Promise<EngineResult> {
      const build = JOBS[feature];
      if (!build) throw new EngineInputError(`${PROVIDER} does not serve ${feature} here`);
      // A refused key, a locked account or fal busy for good takes the engine out for a while (outages.ts).
      const { outputs, cost } = await c.outages.watch(async () =>
        runJob(c, await build((input ?? {}) as Input, uploader(c, ctx)), ctx, FAL_JOB_NAMES.job),
      );
      // Charged per image fal actually made, which may be fewer than asked for.
      return {
        outputs,
        providerCosts: [cost],
        ...(feature === 'image-generation' ? { measured: { count: outputs.length } } : {}),
      };
    },
    // After account or capacity trouble, the features go to their next engine (or answer 503) for a while.
    unavailable: () => c.outages.current(),
    // A job of a task that ended without its result (canceled, failed, timed out), from the stored reference.
    cancelJob: (_name, ref) => cancelFalJob(c, ref, warn),
  };
}

/** Lip sync from bytes (dubbing chains it): both files go to fal storage, then the lip-sync model runs on them. */
export function falLipSync(config: FalConfig): LipSync {
  const c = withFalOutages(config);
  const lipSync: LipSync = (video, audio, ctx) => c.outages.watch(() => lipSyncJob(c, video, audio, ctx));
  // The chaining engine records the job under its own name and passes its cancel here.
  lipSync.cancelJob = (_name, ref) => cancelFalJob(c, ref, warn);
  return lipSync;
}

/** One lip-sync job on fal: the video and audio uploaded, then fal's lip-sync model run on them. */
async function lipSyncJob(
  c: FalConfig,
  video: MediaBytes,
  audio: MediaBytes,
  ctx: EngineContext,
): Promise<EngineOutput & { providerCost: ProviderCost }> {
  const videoUrl = await uploadBytes(c, video, fileName(ctx, 'video', video.mime), ctx.signal);
  const audioUrl = await uploadBytes(c, audio, fileName(ctx, 'audio', audio.mime), ctx.signal);
  const { outputs, cost } = await runJob(
    c,
    { model: FAL_MODELS.lipsync, body: { video_url: videoUrl, audio_url: audioUrl } },
    ctx,
    FAL_JOB_NAMES.lipSync,
  );
  const out = outputs.find((o) => o.kind === 'video');
  if (!out) throw new ProviderError(`${PROVIDER} sent a malformed answer: the lip-sync result has no video`);
  return { ...out, providerCost: cost };
}
