// fal queue calls through the official client: submit (never re-sent once fal may have it), status with webhook
// wake-up, and the result with its billed units.
import { parseEndpointId } from '@fal-ai/client';
import { PROVIDER_RETRY } from '../../../src/lib/product-rules';
import type { EngineContext } from '../types';
import { falClient, type FalClientConfig } from './fal-client';
import { falCall, falObject } from './fal-errors';
import { falBillableUnits } from './fal-cost';
import type { FalJobRef } from './fal-jobs';
import { waitForHook } from './hooks';
import { ProviderError } from './http';

const PROVIDER = 'fal.ai';

export interface FalQueueConfig extends FalClientConfig {
  /** Base of our webhook route (…/engine-hooks); null when fal cannot reach us. */
  webhookBaseUrl: string | null;
  /** Status polling schedule; PROVIDER_RETRY's by default (a webhook wakes the poller earlier). */
  poll?: { startMs: number; factor: number; maxMs: number };
}

/** One fal request: the model's endpoint id and its input fields. */
export interface FalJob {
  model: string;
  body: Record<string, unknown>;
}

/**
 * The app part of an endpoint id, where fal serves a job's status, result and cancel: `owner/alias` (a namespaced id
 * such as workflows/owner/alias keeps three segments), parsed by the client's own parseEndpointId (fal-ai/fal-js
 * libs/client/src/utils.ts, commit 381105e138b85502b528fb8f6c16d909e30e462a).
 */
export function falAppPath(model: string): string {
  const app = parseEndpointId(model);
  return [app.namespace, app.owner, app.alias].filter(Boolean).join('/');
}

/**
 * Queues the job through the client's queue.submit (the webhook, when fal can reach us, names our task so the hook
 * wakes this run's poller). The answer's URLs are kept with the task; an answer without them gets them built under
 * owner/alias, where the client reads the job.
 */
export async function submitJob(
  c: FalQueueConfig,
  job: FalJob,
  hookKey: string,
  signal: AbortSignal,
): Promise<FalJobRef> {
  const client = falClient(c, { signal, policy: 'submit' });
  const webhookUrl = c.webhookBaseUrl ? `${c.webhookBaseUrl}/engine-hooks/${hookKey}` : undefined;
  const queued = await falCall('submit', signal, () =>
    client.queue.submit(job.model, { input: job.body, webhookUrl, abortSignal: signal }),
  );
  const answer = falObject<{
    request_id?: unknown;
    status_url?: unknown;
    response_url?: unknown;
    cancel_url?: unknown;
  }>(queued, 'submit');
  if (typeof answer.request_id !== 'string' || !answer.request_id)
    throw new ProviderError(`${PROVIDER} sent a malformed answer: no request_id`);
  const base = `${c.queueUrl}/${falAppPath(job.model)}/requests/${answer.request_id}`;
  const url = (v: unknown, built: string) => (typeof v === 'string' && v ? v : built);
  return {
    requestId: answer.request_id,
    endpoint: job.model,
    status: url(answer.status_url, `${base}/status`),
    response: url(answer.response_url, base),
    cancel: url(answer.cancel_url, `${base}/cancel`),
  };
}

/** Follows the job until COMPLETED: queue.status with backoff, and a webhook for `hookKey` cuts a wait short. */
export async function waitUntilDone(
  c: FalQueueConfig,
  job: FalJobRef & { endpoint: string },
  hookKey: string,
  ctx: EngineContext,
  missing?: () => Error,
): Promise<void> {
  const client = falClient(c, { signal: ctx.signal, policy: 'read' });
  const poll = c.poll ?? {
    startMs: PROVIDER_RETRY.pollStartMs,
    factor: PROVIDER_RETRY.pollFactor,
    maxMs: PROVIDER_RETRY.pollMaxMs,
  };
  let delay = poll.startMs;
  for (;;) {
    const read = await falCall(
      'status',
      ctx.signal,
      () => client.queue.status(job.endpoint, { requestId: job.requestId, logs: false, abortSignal: ctx.signal }),
      missing,
    );
    const status = falObject<{ status?: unknown }>(read, 'status').status;
    if (status === 'COMPLETED') return;
    if (status === 'IN_PROGRESS') await ctx.progress(50);
    else if (status === 'IN_QUEUE') await ctx.progress(10);
    else throw new ProviderError(`${PROVIDER} sent an unknown job status: ${String(status)}`);
    await waitForHook(hookKey, delay, ctx.signal);
    delay = Math.min(poll.maxMs, delay * poll.factor);
  }
}

/**
 * The job's result through queue.result, which the client reads again on 429/502/503/504 and transport errors so a
 * finished, paid job is not lost to one gateway error. fal's billable units come in a header the client drops, so
 * this call's client is handed each answer and keeps the header of the successful one.
 */
export async function readResult(
  c: FalQueueConfig,
  job: FalJobRef & { endpoint: string },
  signal: AbortSignal,
  missing?: () => Error,
): Promise<{ result: Record<string, unknown>; units: number | null }> {
  let units: number | null = null;
  const client = falClient(c, {
    signal,
    policy: 'read',
    onResponse: (res) => (units = res.ok ? falBillableUnits(res.headers) : units),
  });
  const read = await falCall(
    'result',
    signal,
    () => client.queue.result(job.endpoint, { requestId: job.requestId, abortSignal: signal }),
    missing,
  );
  return { result: falObject<Record<string, unknown>>(read.data, 'result'), units };
}
