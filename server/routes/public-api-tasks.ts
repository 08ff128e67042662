// Public API task calls behind the key check: /async/<tool> submits a run; results, cancel, balance, webhook secret.
import { Hono, type Context } from 'hono';
import type { AuthEnv } from '../accounts';
import { noteApiCall } from '../accounts/request-log';
import { apiKeyIdOf } from '../accounts/api-keys';
import type { AppDeps } from './deps';
import { AppError } from '../http/errors';
import { readBody } from '../http/input';
import { currentRequestId } from '../log';
import { callbackUrlProblem, dreamView, mediaByTask, webhookSecret } from '../tasks';
import { runOptionProblem } from '../engines';
import { PUBLIC_TOOLS, type PublicTool } from '../../src/lib/product-rules';
import { rotateBody, taskIdBody } from '../../src/lib/api-contract';
import { body, ILLEGAL_PARAMETER, success } from './public-api-envelope';
import { idempotencyKey, toolInput } from './public-api-tools';

export function publicTaskRoutes(deps: AppDeps) {
  const system = deps.tasks;
  const { db } = system;
  const { config } = deps;
  const app = new Hono<AuthEnv>();

  const submitted = async (c: Context<AuthEnv>, tool: PublicTool) => {
    const user = c.get('user');
    const key = idempotencyKey(c);
    const { feature, input, callbackUrl } = toolInput(tool, await readBody(c));
    const unsupported = runOptionProblem(system.engines.chain(feature), feature, input);
    if (unsupported) throw new AppError(400, ILLEGAL_PARAMETER, `Illegal parameter: ${unsupported}`);
    if (callbackUrl !== undefined) {
      const problem = await callbackUrlProblem(callbackUrl, config.tasks.outboundAllowPrivate);
      if (problem) throw new AppError(400, ILLEGAL_PARAMETER, `Illegal parameter: callbackUrl: ${problem}`);
    }
    const { task, replayed } = await system.tasks.submit({
      userId: user.id,
      feature,
      input,
      source: 'api',
      idempotencyKey: key,
      callbackUrl: callbackUrl ?? null,
      keyId: apiKeyIdOf(user) ?? null,
      requestId: currentRequestId() ?? null,
    });
    if (replayed) c.header('Idempotent-Replayed', 'true');
    noteApiCall(c, { taskId: task.id, credits: replayed ? 0 : task.credits_held });
    return c.json(success({ taskId: task.id, status: task.status, credits: task.credits_held }));
  };
  for (const tool of Object.keys(PUBLIC_TOOLS) as PublicTool[]) app.post(`/async/${tool}`, (c) => submitted(c, tool));

  async function result(userId: string, taskId: string) {
    const task = await system.tasks.get(userId, taskId);
    return dreamView(task, (await mediaByTask(db, [taskId])).get(taskId) ?? [], system.media);
  }

  app.post('/getAsyncResult', async (c) => {
    const { taskId } = body(taskIdBody, await readBody(c));
    noteApiCall(c, { taskId });
    return c.json(success(await result(c.get('user').id, taskId)));
  });
  app.post('/cancelAsyncTask', async (c) => {
    const { taskId } = body(taskIdBody, await readBody(c));
    noteApiCall(c, { taskId });
    await system.tasks.cancel(c.get('user').id, taskId);
    system.queue.abort(taskId);
    return c.json(success(await result(c.get('user').id, taskId)));
  });
  app.post('/remaining_credits', async (c) => {
    await readBody(c);
    const row = await db
      .selectFrom('users')
      .select('credits')
      .where('id', '=', c.get('user').id)
      .executeTakeFirstOrThrow();
    return c.json(success({ remainingCredits: row.credits }));
  });
  app.post('/webhook_secret', async (c) => {
    const { rotate } = body(rotateBody, await readBody(c));
    return c.json(success({ secret: await webhookSecret(db, c.get('user').id, rotate) }));
  });
  return app;
}
