// POST /engine-hooks/:engine/:taskId: provider webhooks (fal fal_webhook); they only wake the adapter, which re-reads the job, on whichever worker runs it.
import { Hono } from 'hono';
import { z } from 'zod';
import { ENGINE_NAMES } from '../../src/lib/spec';
import type { AppDeps } from './deps';
import { envelope } from '../http/errors';
import { parseInput, validBody } from '../http/input';
import { bodyCap } from './body-cap';

/** fal's webhook body: { request_id, status: OK | ERROR, payload }; only its shape is checked, never trusted. */
const hookBody = z.looseObject({ request_id: z.string().max(200).optional(), status: z.string().max(40).optional() });

/** The path names the waiting job: a known engine and a task id of the form we issue. */
const hookPath = z.object({
  engine: z.enum(ENGINE_NAMES, { message: `must be one of ${ENGINE_NAMES.join(', ')}` }),
  taskId: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be a task id'),
});

export function engineHookRoutes({ config, tasks }: AppDeps) {
  const app = new Hono();
  app.use('*', bodyCap(config.bodyLimitBytes));
  app.post('/:engine/:taskId', async (c) => {
    const { engine, taskId } = parseInput(hookPath, c.req.param());
    await validBody(c, hookBody);
    // Anyone can post here: the adapter asks the provider for the job's real state when woken. A hook for a job
    // no one follows (finished, or polled to its end already) is still answered 200 so the provider stops retrying.
    // The queue delivers it: here (in-process) or by NOTIFY to every worker (docs/scaling.md "Job queue").
    return c.json(envelope(0, (await tasks.queue.wake(`${engine}/${taskId}`)) ? 'ok' : 'no job waiting', null));
  });
  return app;
}
