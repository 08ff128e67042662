// POST /engine-hooks/:engine/:taskId: provider webhooks (fal fal_webhook); they only wake the adapter, which re-reads the job.
import { Hono } from 'hono';
import { z } from 'zod';
import { notifyHook } from '../engines/providers/hooks';
import { envelope } from '../http/errors';
import { validBody } from '../http/input';

/** fal's webhook body: { request_id, status: OK | ERROR, payload }; only its shape is checked, never trusted. */
const hookBody = z.looseObject({ request_id: z.string().max(200).optional(), status: z.string().max(40).optional() });

export function engineHookRoutes() {
  const app = new Hono();
  app.post('/engine-hooks/:engine/:taskId', async (c) => {
    await validBody(c, hookBody);
    const key = `${c.req.param('engine')}/${c.req.param('taskId')}`;
    // Anyone can post here: the adapter asks the provider for the job's real state when woken.
    return c.json(envelope(0, notifyHook(key) ? 'ok' : 'no job waiting', null));
  });
  return app;
}
