// fal queue jobs kept with their task: the reference stored once fal accepted a submit, read back by a later attempt,
// and the cancel a stored reference allows.
import { ApiError } from '@fal-ai/client';
import { z } from 'zod';
import { PROVIDER_JOB_MESSAGES, PROVIDER_RETRY } from '../../../src/lib/product-rules';
import type { EngineContext } from '../types';
import { describeError, falClient, type FalClientConfig } from './fal-client';
import { ProviderError } from './http';

const PROVIDER = 'fal.ai';

/**
 * What a run keeps of its fal job: the request id, the endpoint id it was submitted to (the client builds the job's
 * status, result and cancel URLs from both), and the URLs fal answered the submit with. References stored before the
 * endpoint was kept have none; theirs is read from the cancel URL.
 */
export const falJobRef = z.object({
  requestId: z.string().min(1),
  endpoint: z.string().min(1).optional(),
  status: z.url(),
  response: z.url(),
  cancel: z.url(),
});
export type FalJobRef = z.infer<typeof falJobRef>;

/** The name of a fal job within an engine's run: the fal engine's own job, or the lip-sync job chained after a dub. */
export const FAL_JOB_NAMES = { job: 'job', lipSync: 'lip-sync' } as const;

/**
 * The job an earlier attempt of this task submitted under `name`, or null. An unreadable reference fails the attempt:
 * a second submit could start a second paid job.
 */
export async function earlierFalJob(ctx: EngineContext, name: string): Promise<FalJobRef | null> {
  const stored = await ctx.providerJobs.earlier(name);
  if (stored === null) return null;
  const ref = falJobRef.safeParse(stored);
  if (!ref.success) throw new ProviderError(PROVIDER_JOB_MESSAGES.malformedRef(PROVIDER));
  return ref.data;
}

/**
 * A resumed job fal answers 404 for is gone (unknown or expired there): the attempt fails, nothing is submitted again.
 */
export const unknownFalJob = (ref: FalJobRef) =>
  new ProviderError(PROVIDER_JOB_MESSAGES.unknown(PROVIDER, ref.requestId));

/**
 * The endpoint a job was submitted to: as kept, or the part of its cancel URL before /requests/ under our queue base.
 */
export function falJobEndpoint(ref: FalJobRef, queueUrl: string): string {
  if (ref.endpoint) return ref.endpoint;
  const path = ref.cancel.startsWith(`${queueUrl}/`)
    ? ref.cancel.slice(queueUrl.length + 1)
    : new URL(ref.cancel).pathname.slice(1);
  return path.split('/requests/')[0]!;
}

/**
 * The client's queue.cancel from a stored reference: PUT {queue}/{owner}/{alias}/requests/{id}/cancel (fal-ai/fal-js
 * libs/client/src/queue.ts cancel(), commit 381105e138b85502b528fb8f6c16d909e30e462a). Best effort and never throws:
 * the task is already over on our side; fal may refuse a job that already finished, which is then nothing to stop.
 */
export async function cancelFalJob(
  c: FalClientConfig,
  stored: unknown,
  log: (message: string, fields: Record<string, unknown>) => void,
): Promise<void> {
  const ref = falJobRef.safeParse(stored);
  if (!ref.success) {
    log(`a stored ${PROVIDER} job could not be read, so it was not canceled; it may still run and bill`, {
      engine: 'fal',
    });
    return;
  }
  const signal = AbortSignal.timeout(PROVIDER_RETRY.requestTimeoutMs);
  try {
    await falClient(c, { signal, policy: 'read' }).queue.cancel(falJobEndpoint(ref.data, c.queueUrl), {
      requestId: ref.data.requestId,
      abortSignal: signal,
    });
  } catch (error) {
    // fal answered and refused (a job that already finished): nothing left to stop, as before the client.
    if (error instanceof ApiError) return;
    log(`${PROVIDER} job could not be canceled; it may still run and bill`, {
      engine: 'fal',
      requestId: ref.data.requestId,
      error: describeError(error),
    });
  }
}
