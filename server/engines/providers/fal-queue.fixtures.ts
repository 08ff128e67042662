// The queue surface of the fal.ai fake (fal.fixtures.ts, which names the fal-js commit cited): submit, status, result
// and cancel of model jobs, each behaving as the fake's mode says.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson, sendProxyErrorPage } from '../../test-support/provider-fakes';
import { FAL_MODELS } from '../../../src/lib/product-rules';

/**
 * How the next job behaves; 'one-image' answers a single image whatever was asked, 'hook' completes only once released,
 * 'bare' answers a submit with its request_id alone, 'submit-502' queues the job but answers its submit 502 (a gateway
 * failing after fal took it), 'result-502' answers the first read of each finished result 502, 'locked' refuses every
 * submit as a locked account does, 'invalid' refuses the input on the result naming negative_prompt.
 */
export type Mode =
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

/** What the fake's switches say: the mode of the next job, and whether 'hook' jobs may complete. */
export interface QueueState {
  mode: Mode;
  released: boolean;
  rateLimited: number;
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

/** The queue half of the fake; `callCount` numbers the request ids it issues. */
export function falQueueFake(state: QueueState, callCount: () => number) {
  /** Status reads per request id. */
  const statusCalls = new Map<string, number>();
  /** Result reads per request id. */
  const resultCalls = new Map<string, number>();
  const jobs = new Map<
    string,
    { model: string; body: Record<string, unknown>; mode: Mode; canceled?: boolean; completed?: boolean }
  >();

  /** A queue call (anything left, its body read): answered here, 404 when it is not one. */
  function handle(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer, base: string): void {
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      sendJson(res, status, value, headers);
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
      const id = `req-${callCount()}-${state.mode}`;
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
  }

  return {
    statusCalls,
    resultCalls,
    handle,
    /** Jobs still running here: neither canceled nor seen COMPLETED by a status read. */
    running: () => [...jobs].filter(([, j]) => !j.canceled && !j.completed).map(([id]) => id),
    /** Request ids canceled with PUT …/cancel. */
    canceled: () => [...jobs].filter(([, j]) => j.canceled).map(([id]) => id),
    /** Forgets the jobs of the last test. */
    forgetJobs: () => jobs.clear(),
  };
}
