// DreamAPI upstream adapter (for operators who resell DreamAPI): submit to /api/async/<tool>, poll getAsyncResult, keep
// the files.
import { z } from 'zod';
import { PROVIDER_JOB_MESSAGES, PROVIDER_RETRY } from '../../../src/lib/product-rules';
import {
  DREAMAPI_FEATURES,
  DREAMAPI_FILE_MIMES,
  DREAMAPI_OUTPUT_KIND,
  DREAMAPI_PATHS,
  DREAMAPI_PROGRESS,
  DREAMAPI_STATUS,
  DREAMAPI_TTS_LANGUAGES,
  type DreamApiFeature,
} from './dreamapi-constants';
import type { Feature, MediaKind } from '../../../src/lib/product-rules';
import { createLogger, type Logger } from '../../log';
import { probeMedia } from '../../media/probe';
import { EngineInputError, type Engine, type EngineContext, type EngineOutput, type EngineResult } from '../types';
import { dreamApiClient, malformed, PROVIDER, type DreamApiClient } from './dreamapi-client';
import { toDreamApi, type MediaUrl } from './dreamapi-inputs';
import { dreamApiCost } from './dreamapi-cost';
import { download, isPublicUrl, ProviderError, sleep } from './http';
import { outageTracker } from './outages';

export interface DreamApiConfig {
  key: string;
  baseUrl: string;
  /**
   * Where what only operators should read goes (DreamAPI's key, credit or capacity trouble); stderr at warn level when
   * absent.
   */
  log?: Pick<Logger, 'warn'>;
}

type Data = Record<string, unknown>;

/** The usual file extension of a mime (storage keys carry one), e.g. audio/mpeg → mp3. */
function extensionOf(mime: string): string {
  return Object.entries(DREAMAPI_FILE_MIMES).find(([, m]) => m === mime)?.[0] ?? mime.split('/')[1] ?? 'bin';
}

const isServed = (feature: Feature): feature is DreamApiFeature =>
  (DREAMAPI_FEATURES as readonly string[]).includes(feature);

/** Checks each input file by its bytes, then hands DreamAPI a URL it can fetch (ours go through its storage). */
function mediaUrls(client: DreamApiClient, ctx: EngineContext): MediaUrl {
  let n = 0;
  return async (url, kinds) => {
    const media = await ctx.readInput(url, kinds);
    if (isPublicUrl(url)) return url;
    const name = `${ctx.taskId}-${n++}.${extensionOf(media.mime)}`;
    return client.upload({ data: media.data, mime: media.mime, name }, ctx.signal);
  };
}

async function submit(client: DreamApiClient, tool: string, body: unknown, signal: AbortSignal): Promise<string> {
  const data = await client.call(`${DREAMAPI_PATHS.asyncPrefix}${tool}`, body, signal);
  if (typeof data.taskId !== 'string' || !data.taskId) throw malformed('no taskId');
  return data.taskId;
}

/** A failed job's reason as DreamAPI words it (the upstream task id is left out: it only lives in memory). */
function failure(task: Data): ProviderError {
  const reason = typeof task.reason === 'string' && task.reason ? task.reason : 'no reason given';
  const code =
    task.errorCode !== undefined && task.errorCode !== null && task.errorCode !== ''
      ? ` (code ${String(task.errorCode)})`
      : '';
  return new ProviderError(`${PROVIDER} job failed: ${reason}${code}`);
}

/**
 * Polls getAsyncResult with backoff until the job succeeds (its result) or fails. DreamAPI has no cancel: when the
 * task is canceled or times out, `signal` aborts the wait and we stop polling, but the upstream job keeps running
 * and is paid for upstream; our user is refunded by the task service all the same.
 */
async function follow(client: DreamApiClient, taskId: string, ctx: EngineContext): Promise<Data> {
  let delay: number = PROVIDER_RETRY.pollStartMs;
  for (;;) {
    const result = await client.call(DREAMAPI_PATHS.result, { taskId }, ctx.signal);
    const task = (result.task ?? {}) as Data;
    if (task.status === DREAMAPI_STATUS.succeeded) return result;
    if (task.status === DREAMAPI_STATUS.failed) throw failure(task);
    if (task.status === DREAMAPI_STATUS.submitted) await ctx.progress(DREAMAPI_PROGRESS.submitted);
    else if (task.status === DREAMAPI_STATUS.running) await ctx.progress(DREAMAPI_PROGRESS.running);
    else throw malformed(`unknown job status ${JSON.stringify(task.status)}`);
    await sleep(delay, ctx.signal);
    delay = Math.min(PROVIDER_RETRY.pollMaxMs, delay * PROVIDER_RETRY.pollFactor);
  }
}

/**
 * The result's files of one kind: images[].imageUrl, videos[].videoUrl or audios[].audioUrl, with their declared type.
 */
function filesOf(result: Data, kind: MediaKind): Array<{ url: string; type: string }> {
  const list = result[`${kind}s`];
  if (!Array.isArray(list)) return [];
  return list
    .map((f: Data) => ({ url: f?.[`${kind}Url`], type: f?.[`${kind}Type`] }))
    .filter((f): f is { url: string; type: unknown } => typeof f.url === 'string' && f.url.length > 0)
    .map((f) => ({ url: f.url, type: typeof f.type === 'string' ? f.type.replace(/^\./, '').toLowerCase() : '' }));
}

/**
 * A downloaded file recognised by its bytes first; the header or DreamAPI's declared type only when the bytes say
 * nothing.
 */
async function fetchOutput(
  file: { url: string; type: string },
  kind: MediaKind,
  signal: AbortSignal,
): Promise<EngineOutput> {
  const got = await download(PROVIDER, file.url, signal);
  const sniffed = await probeMedia(got.data, { signal });
  const header = got.mime && got.mime !== 'application/octet-stream' ? got.mime : undefined;
  const mime = sniffed?.mime ?? header ?? DREAMAPI_FILE_MIMES[file.type] ?? 'application/octet-stream';
  // Per-second features are settled on the real length, read from the file's own header.
  return { kind, mime, data: got.data, durationS: kind === 'image' ? null : (sniffed?.durationS ?? null) };
}

/** do_stt answers sttResult.data[] segments with timestamps; do_stt_pro answers sttProResult.text. */
function transcript(result: Data): string | undefined {
  const pro = (result.sttProResult as Data | undefined)?.text;
  if (typeof pro === 'string') return pro;
  const segments = (result.sttResult as Data | undefined)?.data;
  if (!Array.isArray(segments)) return undefined;
  return segments
    .map((s: Data) => (typeof s?.text === 'string' ? s.text.trim() : ''))
    .filter(Boolean)
    .join(' ');
}

/** The data-only results: voice_clone's cloneId and the speech-to-text transcript. */
function dataResult(feature: DreamApiFeature, result: Data): EngineResult {
  if (feature === 'voice-clone') {
    if (typeof result.cloneId !== 'string' || !result.cloneId)
      throw malformed('voice_clone succeeded without a cloneId');
    return { outputs: [], cloneId: result.cloneId };
  }
  const text = transcript(result);
  if (text === undefined) throw malformed('speech to text succeeded without a transcript');
  return { outputs: [], text };
}

async function collect(feature: DreamApiFeature, result: Data, signal: AbortSignal): Promise<EngineResult> {
  const kind = DREAMAPI_OUTPUT_KIND[feature];
  if (kind === null) return dataResult(feature, result);
  const files = filesOf(result, kind);
  if (files.length === 0) throw malformed(`the job succeeded without ${kind} files`);
  const outputs: EngineOutput[] = [];
  for (const file of files) outputs.push(await fetchOutput(file, kind, signal));
  return { outputs };
}

/**
 * What a run keeps of its DreamAPI job (ctx.providerJobs), so a restarted, handed-back or taken-over task follows it.
 */
const dreamApiJobRef = z.object({ taskId: z.string().min(1) });
const JOB = 'job';

/**
 * The job an earlier attempt of this task submitted, or null; an unreadable reference fails the attempt rather than pay
 * twice.
 */
async function earlierTask(ctx: EngineContext): Promise<string | null> {
  const stored = await ctx.providerJobs.earlier(JOB);
  if (stored === null) return null;
  const ref = dreamApiJobRef.safeParse(stored);
  if (!ref.success) throw new ProviderError(PROVIDER_JOB_MESSAGES.malformedRef(PROVIDER));
  return ref.data.taskId;
}

/**
 * Submits the job and keeps it with the task as soon as DreamAPI accepted it. DreamAPI has no cancel (see follow()), so
 * the engine has no cancelJob: a task that ends without the job's result leaves it to finish upstream.
 */
async function submitAndKeep(
  client: DreamApiClient,
  feature: DreamApiFeature,
  input: unknown,
  ctx: EngineContext,
): Promise<string> {
  const { tool, body } = await toDreamApi(feature, input, mediaUrls(client, ctx));
  const taskId = await submit(client, tool, body, ctx.signal);
  await ctx.providerJobs.record(JOB, { taskId } satisfies z.infer<typeof dreamApiJobRef>);
  return taskId;
}

export function dreamApiEngine(c: DreamApiConfig): Engine {
  const client = dreamApiClient(c);
  const outages = outageTracker('dreamapi', PROVIDER, c.log ?? createLogger('warn'));
  return {
    name: 'dreamapi',
    features: DREAMAPI_FEATURES,
    // Speech only in the languages DreamAPI documents an audioId for: the features answer and submit say so.
    languages: DREAMAPI_TTS_LANGUAGES,
    async run(feature, input, ctx): Promise<EngineResult> {
      if (!isServed(feature)) throw new EngineInputError(`${PROVIDER} does not serve ${feature}`);
      // A refused key, spent credits or DreamAPI busy for good takes the engine out for a while (outages.ts).
      return outages.watch(async () => {
        const taskId = (await earlierTask(ctx)) ?? (await submitAndKeep(client, feature, input, ctx));
        await ctx.progress(DREAMAPI_PROGRESS.submitted);
        const result = await follow(client, taskId, ctx);
        const made = await collect(feature, result, ctx.signal);
        return { ...made, providerCosts: [dreamApiCost(feature, input, result, made.outputs)] };
      });
    },
    // After account or capacity trouble, the features go to their next engine (or answer 503) for a while.
    unavailable: () => outages.current(),
  };
}
