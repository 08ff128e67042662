// POST /engine-hooks/:engine/:taskId: provider webhooks (fal fal_webhook); they only wake the adapter, which re-reads
// the job, on whichever worker runs it.
import { Hono } from 'hono';
import { z } from 'zod';
import { ENGINE_NAMES, ERROR_CODES, FAL_WEBHOOK_MESSAGES } from '../../src/lib/product-rules';
import type { AppDeps } from './deps';
import { AppError, envelope } from '../http/errors';
import { whileReading } from '../http/cut-off';
import { parseInput, validBody } from '../http/input';
import { providerHooksUnverified } from '../metrics';
import { falWebhookVerifier } from '../engines/providers/fal-webhook-signature';
import { bodyCap } from './body-cap';

/** fal's webhook body: { request_id, status: OK | ERROR, payload }; only its shape is checked, never trusted. */
const hookBody = z.looseObject({ request_id: z.string().max(200).optional(), status: z.string().max(40).optional() });

/** The path names the waiting job: a known engine and a task id of the form we issue. */
const hookPath = z.object({
  engine: z.enum(ENGINE_NAMES, { message: `must be one of ${ENGINE_NAMES.join(', ')}` }),
  taskId: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be a task id'),
});

export function engineHookRoutes({ config, tasks, log }: AppDeps) {
  const app = new Hono();
  // One key cache per app: every fal hook this process receives shares it.
  const falHooks = falWebhookVerifier({ jwksUrl: config.tasks.falWebhookJwksUrl, log });
  app.use('*', bodyCap(config.bodyLimitBytes));
  app.post('/:engine/:taskId', async (c) => {
    const { engine, taskId } = parseInput(hookPath, c.req.param());
    if (engine === 'fal') {
      // The signature covers the exact bytes sent, so they are read before anything parses them.
      const raw = new Uint8Array(await whileReading(c, () => c.req.arrayBuffer()));
      const verdict = await falHooks.verify((name) => c.req.header(name), raw);
      if (!verdict.verified) {
        providerHooksUnverified.inc({ engine, reason: verdict.reason });
        log.warn('fal webhook ignored: signature not verified', { taskId, reason: verdict.reason });
        // 401, not 200: a genuine hook refused for a passing reason (keys out of reach, a key rotated within the
        // refetch cooldown) is retried by fal, a bounded number of times (docs: 10 times over 2 hours).
        throw new AppError(401, ERROR_CODES.forbidden, FAL_WEBHOOK_MESSAGES.unverified);
      }
    }
    await validBody(c, hookBody);
    // The adapter asks the provider for the job's real state when woken. A hook for a job no one follows
    // (finished, or polled to its end already) is still answered 200 so the provider stops retrying.
    // The queue delivers it: here (in-process) or by NOTIFY to every worker (docs/scaling.md "Job queue").
    return c.json(envelope(0, (await tasks.queue.wake(`${engine}/${taskId}`)) ? 'ok' : 'no job waiting', null));
  });
  return app;
}
