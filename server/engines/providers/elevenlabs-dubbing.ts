// ElevenLabs dubbing for video translation through the official client: create the job with the video (or resume an
// earlier attempt's), follow it, fetch the dubbed MP4; lip sync chained after it.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  ELEVENLABS_DUBBING_STATUS,
  ELEVENLABS_JOBS,
  ELEVENLABS_NAMES,
  ELEVENLABS_PROGRESS,
} from './elevenlabs-constants';
import { ELEVENLABS_PRICES, PROVIDER_JOB_MESSAGES, PROVIDER_RETRY } from '../../../src/lib/product-rules';
import type { Feature } from '../../../src/lib/product-rules';
import type { Logger } from '../../log';
import { probeMedia } from '../../media/probe';
import { ffmpegTools, runTool, withWorkDir } from '../../tools';
import { EngineUnsupportedError, type EngineContext, type EngineResult, type InputMedia, type LipSync } from '../types';
import { PROVIDER, type ElevenLabsClient, type ElevenLabsFile } from './elevenlabs-api';
import { filePart, languageCode, progressShare, requiredText, type Input } from './elevenlabs-inputs';
import { mediaSecondsCost } from './elevenlabs-cost';
import { ProviderError, sleep } from './http';

async function createJob(
  client: ElevenLabsClient,
  i: Input,
  video: InputMedia,
  ctx: EngineContext,
): Promise<DubbingRef> {
  const request = {
    file: filePart(video, 'video'),
    name: ELEVENLABS_NAMES.dubbing(ctx.taskId),
    targetLang: languageCode(requiredText(i, 'targetLanguage', 'video translation')),
    // Without a source language ElevenLabs detects it; 0 speakers asks it to count them.
    sourceLang:
      typeof i.sourceLanguage === 'string' && i.sourceLanguage.trim() ? languageCode(i.sourceLanguage) : 'auto',
    numSpeakers: 0,
  };
  const job: { dubbingId: string; expectedDurationSec?: unknown } = await client.upload(
    (api, o) => api.dubbing.create(request, o),
    ctx.signal,
    { field: 'dubbingId', lacks: 'no dubbing_id' },
  );
  return {
    id: job.dubbingId,
    expectedS:
      typeof job.expectedDurationSec === 'number' && job.expectedDurationSec > 0 ? job.expectedDurationSec : null,
  };
}

/** ElevenLabs gives no percentage: progress follows the time the job said it would take. */
function dubbingProgress(startedMs: number, expectedS: number | null): number {
  return expectedS === null
    ? ELEVENLABS_PROGRESS.unknownEta
    : progressShare((Date.now() - startedMs) / (expectedS * 1000));
}

/**
 * Polls the job with growing intervals until it is dubbed; a failed job fails the task with ElevenLabs' reason. Any
 * other status, even one this adapter does not know, is a job on its way: only the task's deadline ends the wait.
 */
async function followJob(
  client: ElevenLabsClient,
  job: DubbingRef,
  missing: (() => Error) | undefined,
  ctx: EngineContext,
  log: Pick<Logger, 'warn'>,
): Promise<void> {
  const started = Date.now();
  const running: readonly unknown[] = ELEVENLABS_DUBBING_STATUS.running;
  let delay: number = PROVIDER_RETRY.pollStartMs;
  let reported = false;
  for (;;) {
    const state: { status?: unknown; error?: unknown } = await client.json((api, o) => api.dubbing.get(job.id, o), {
      signal: ctx.signal,
      idempotent: true,
      missing,
      malformed: 'no dubbing status',
    });
    if (state.status === ELEVENLABS_DUBBING_STATUS.done) return;
    if (state.status === ELEVENLABS_DUBBING_STATUS.failed)
      throw new ProviderError(
        `${PROVIDER} could not dub the video: ${typeof state.error === 'string' && state.error ? state.error : 'no reason given'}`,
      );
    if (!running.includes(state.status) && !reported) {
      // Once per job: the operator learns ElevenLabs added a status, the task keeps waiting.
      log.warn(`${PROVIDER} sent a dubbing status this adapter does not know; waiting on as if dubbing`, {
        engine: 'elevenlabs',
        dubbingId: job.id,
        status: String(state.status),
      });
      reported = true;
    }
    await ctx.progress(dubbingProgress(started, job.expectedS));
    await sleep(delay, ctx.signal);
    delay = Math.min(PROVIDER_RETRY.pollMaxMs, delay * PROVIDER_RETRY.pollFactor);
  }
}

/**
 * ffmpeg separates the dubbed soundtrack; checked before dubbing too, so no dub is paid for that cannot be lip-synced.
 */
function ffmpegForLipSync(): string {
  const tools = ffmpegTools();
  if (!tools)
    throw new EngineUnsupportedError(
      'lip sync after dubbing needs ffmpeg to take the dubbed soundtrack out of the video; install it (docs/engines.md) or translate with the voice only',
    );
  return tools.ffmpeg;
}

/** The dubbed video's soundtrack as WAV (lip-sync models take an audio track, ElevenLabs returns a whole MP4). */
async function soundtrack(dubbed: Buffer, signal: AbortSignal): Promise<Buffer> {
  const ffmpeg = ffmpegForLipSync();
  return withWorkDir('elevenlabs-dub-', async (dir) => {
    const [input, output] = [path.join(dir, 'dubbed.mp4'), path.join(dir, 'dubbed.wav')];
    await writeFile(input, dubbed);
    await runTool(ffmpeg, ['-v', 'error', '-i', input, '-vn', '-ac', '1', '-c:a', 'pcm_s16le', '-y', output], signal);
    return readFile(output);
  });
}

/** ElevenLabs reports no cost for a dub: the published price per minute of the dubbed video, estimated. */
const dubbingCost = (dubbed: ElevenLabsFile) =>
  mediaSecondsCost(dubbed.durationS, ELEVENLABS_PRICES.dubbingUsdPerSecond);

async function lipSynced(
  lipSync: LipSync,
  source: InputMedia,
  dubbed: ElevenLabsFile,
  ctx: EngineContext,
): Promise<EngineResult> {
  await ctx.progress(ELEVENLABS_PROGRESS.lipSync);
  const audio = await soundtrack(dubbed.data, ctx.signal);
  const { providerCost, ...out } = await lipSync(
    { data: source.data, mime: source.mime },
    { data: audio, mime: 'audio/wav' },
    ctx,
  );
  // Per-second features are settled on this length: read it from the file when the lip-sync model did not say.
  const video = {
    ...out,
    durationS: out.durationS ?? (await probeMedia(out.data, { signal: ctx.signal }))?.durationS ?? null,
  };
  return { outputs: [video], providerCosts: [dubbingCost(dubbed), ...(providerCost ? [providerCost] : [])] };
}

/**
 * What a run keeps of its dub (ctx.providerJobs), so a restarted, handed-back or taken-over task follows the same dub.
 */
const dubbingRef = z.object({ id: z.string().min(1), expectedS: z.number().positive().nullable() });
type DubbingRef = z.infer<typeof dubbingRef>;

/**
 * The dub an earlier attempt of this task started, or null. An unreadable reference fails the attempt: creating another
 * dub could bill the same video twice.
 */
async function earlierDub(ctx: EngineContext): Promise<DubbingRef | null> {
  const stored = await ctx.providerJobs.earlier(ELEVENLABS_JOBS.dubbing);
  if (stored === null) return null;
  const ref = dubbingRef.safeParse(stored);
  if (!ref.success) throw new ProviderError(PROVIDER_JOB_MESSAGES.malformedRef(PROVIDER));
  return ref.data;
}

/**
 * Video translation. The dub is kept with the task as soon as ElevenLabs accepted it, and a later attempt (after a
 * restart, a drain's hand-back or a takeover) follows that dub instead of paying for another; one ElevenLabs no longer
 * knows fails the attempt. The run never deletes the dub itself: the task layer does, through cancelJob, whenever the
 * task ends without its result (failed, canceled, timed out), from any process, since an aborted run may only have been
 * handed back. With lip sync the source video and the dubbed soundtrack go to the lip-sync model.
 */
export async function translateVideo(
  client: ElevenLabsClient,
  lipSync: LipSync | null,
  feature: Feature,
  i: Input,
  ctx: EngineContext,
  log: Pick<Logger, 'warn'>,
): Promise<EngineResult> {
  const withLips = feature === 'video-translate-lip-sync';
  if (withLips && !lipSync)
    throw new EngineUnsupportedError(`${PROVIDER} has no lip-sync model configured for ${feature}`);
  if (withLips) ffmpegForLipSync();
  const target = languageCode(requiredText(i, 'targetLanguage', feature));
  const resumed = await earlierDub(ctx);
  // A resumed dub needs the source again only for lip sync (it is not uploaded twice).
  const source = !resumed || withLips ? await ctx.readInput(requiredText(i, 'videoUrl', feature), ['video']) : null;
  let job: DubbingRef;
  if (resumed) job = resumed;
  else {
    job = await createJob(client, i, source!, ctx);
    await ctx.providerJobs.record(ELEVENLABS_JOBS.dubbing, job);
  }
  // A resumed dub that ElevenLabs answers 404 for is gone (deleted or expired there): said plainly, not dubbed again.
  const missing = resumed ? () => new ProviderError(PROVIDER_JOB_MESSAGES.unknown(PROVIDER, job.id)) : undefined;
  await ctx.progress(ELEVENLABS_PROGRESS.submitted);
  await followJob(client, job, missing, ctx, log);
  // The dubbed file of the target language: MP4 for a video (GET /v1/dubbing/{id}/audio/{language_code}).
  const dubbed = await client.file((api, o) => api.dubbing.audio.get(job.id, target, o), 'video', {
    signal: ctx.signal,
    idempotent: true,
    missing,
  });
  if (withLips) return lipSynced(lipSync!, source!, dubbed, ctx);
  return {
    outputs: [{ kind: 'video', mime: dubbed.mime, data: dubbed.data, durationS: dubbed.durationS }],
    providerCosts: [dubbingCost(dubbed)],
  };
}

/**
 * Deletes a dub (DELETE /v1/dubbing/{id}) from its stored reference; lip-sync jobs go to the lip-sync model's own
 * cancel.
 */
export async function cancelDubbingJob(
  client: ElevenLabsClient,
  lipSync: LipSync | null,
  name: string,
  stored: unknown,
  log: Pick<Logger, 'warn'>,
): Promise<void> {
  if (name.startsWith(ELEVENLABS_JOBS.lipSyncPrefix)) return lipSync?.cancelJob?.(name, stored);
  const ref = dubbingRef.safeParse(stored);
  if (name !== ELEVENLABS_JOBS.dubbing || !ref.success) {
    log.warn(`a stored ${PROVIDER} job could not be read, so it was not deleted; it may still run and bill`, {
      engine: 'elevenlabs',
      name,
    });
    return;
  }
  const id = ref.data.id;
  await client.remove(`dubbing ${id}`, (api, o) => api.dubbing.delete(id, o));
}
