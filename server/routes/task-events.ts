// Live task status as Server-Sent Events: one task or a whole account, for the playground (session) and the public API
// (Bearer key).
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { requireApiKey, requireUser, type AuthEnv } from '../accounts';
import { holdApiCall, noteApiCall, type RequestLog } from '../accounts/request-log';
import { AppError, errorResponder } from '../http/errors';
import { describeIssue, validate } from '../http/input';
import { rateLimit } from '../http/rate-limit';
import { statusStreamDuration, statusStreamEvents } from '../metrics';
import type { TaskRow } from '../db';
import { dreamView, isFinished, mediaByTask, taskView, type TaskSystem } from '../tasks';
import {
  ERROR_CODES,
  LIVE_STATUS,
  LIVE_STATUS_MESSAGES,
  PLAYGROUND_PREFIX,
  PUBLIC_API_CODES,
} from '../../src/lib/product-rules';
import type { AppDeps } from './deps';
import { refusal } from './public-api';
import { taskEventsQuery } from '../../src/lib/api-contract';

/**
 * Last-Event-ID: the id of the last event a client saw (a millisecond time); anything else is ignored, as browsers may
 * send junk.
 */
const lastEventId = z
  .string()
  .regex(/^\d{1,15}$/)
  .transform(Number);

type View = (tasks: TaskRow[]) => Promise<unknown[]>;
/** Which stream: the public API's (Bearer key) or the playground's (session). */
type StreamKind = 'public' | 'playground';
/**
 * How a stream ended: its one task's final status was sent (or the task is gone), the client left, the process
 * drained, or an error.
 */
type StreamEnd = 'finished' | 'left' | 'drain' | 'error';

function viewWith(system: TaskSystem, kind: 'playground' | 'public'): View {
  return async (tasks) => {
    const media = await mediaByTask(
      system.db,
      tasks.map((t) => t.id),
    );
    return tasks.map((t) =>
      kind === 'public'
        ? dreamView(t, media.get(t.id) ?? [], system.media)
        : taskView(t, media.get(t.id) ?? [], system.media),
    );
  };
}

/**
 * The stream: `retry:` first, then each changed task as `event: task` with its view as data and an `id:`, a comment
 * every LIVE_STATUS.heartbeatMs, and the end after a one-task stream's final status. Answered before any byte when
 * the task is not the caller's (404), the account has its streams open already (429) or the process drains (503).
 * Its answer returns as it starts, so the time the HTTP metric sees is the time to open: when it ends, a log line and
 * the stream metrics say how long it was open, how many events it sent and how it ended, and a public one goes into
 * the account's request log then.
 */
async function openStream(
  c: Context<AuthEnv>,
  deps: AppDeps,
  view: View,
  o: { kind: StreamKind; illegal: number },
): Promise<Response> {
  const { tasks: system, log } = deps;
  const parsed = validate(taskEventsQuery, c.req.query());
  if (!parsed.success)
    throw new AppError(400, o.illegal, `Illegal parameter: ${describeIssue(parsed.error, c.req.query())}`);
  const { taskId } = parsed.data;
  const userId = c.get('user').id;
  if (taskId) await system.tasks.get(userId, taskId);
  const resumed = lastEventId.safeParse(c.req.header('last-event-id'));
  const watch = system.live.watch({ userId, taskId, since: resumed.success ? resumed.data : undefined });
  let drained = false;
  const entry = system.live.streams.enter(userId, () => {
    drained = true;
    watch.close();
  });
  if (typeof entry === 'string') {
    watch.close();
    if (entry === 'too-many')
      throw new AppError(429, ERROR_CODES.rateLimited, LIVE_STATUS_MESSAGES.tooManyStreams, {
        'Retry-After': String(LIVE_STATUS.heartbeatMs / 1000),
      });
    throw new AppError(503, ERROR_CODES.unavailable, LIVE_STATUS_MESSAGES.draining, { 'Retry-After': '1' });
  }
  if (o.kind === 'public' && taskId) noteApiCall(c, { taskId });
  const endCall = o.kind === 'public' ? holdApiCall(c) : undefined;
  const openedAt = performance.now();
  let events = 0;
  let end: StreamEnd = 'finished';
  // Proxies that buffer answers (nginx) pass this one through as it is written.
  c.header('X-Accel-Buffering', 'no');
  return streamSSE(c, async (stream) => {
    stream.onAbort(() => watch.close());
    try {
      await stream.write(`retry: ${LIVE_STATUS.clientRetryMs}\n\n`);
      for (;;) {
        const changes = await watch.changes();
        if (changes === null || stream.aborted) {
          end = stream.aborted ? 'left' : drained ? 'drain' : 'finished';
          break;
        }
        if (changes.length === 0) {
          await stream.write(': heartbeat\n\n');
          continue;
        }
        const views = await view(changes.map((ch) => ch.task));
        for (const [i, ch] of changes.entries()) {
          await stream.writeSSE({ event: LIVE_STATUS.event, id: ch.id, data: JSON.stringify(views[i]) });
          events++;
        }
        if (taskId && changes.some((ch) => isFinished(ch.task))) break;
      }
    } catch (error) {
      // The client left mid-write, or the database failed: the stream ends and the client reconnects with
      // Last-Event-ID.
      end = stream.aborted ? 'left' : 'error';
      if (!stream.aborted)
        log.warn('status stream ended by an error', {
          userId,
          taskId,
          error: error instanceof Error ? error.message : String(error),
        });
    } finally {
      watch.close();
      entry.leave();
      endCall?.();
      const durationMs = Math.round(performance.now() - openedAt);
      statusStreamDuration.labels(o.kind, end).observe(durationMs / 1000);
      statusStreamEvents.labels(o.kind).inc(events);
      log.info('status stream closed', { stream: o.kind, userId, taskId, durationMs, events, end });
    }
  });
}

/** GET under the playground prefix with the session token (the same caller as the playground's poll). */
export function playgroundTaskEvents(deps: AppDeps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  app.onError(errorResponder(deps.log));
  const path = LIVE_STATUS.playgroundPath.slice(PLAYGROUND_PREFIX.length);
  const view = viewWith(deps.tasks, 'playground');
  app.get(path, requireUser(deps.database.db, { refuseSuspended: { reads: () => true } }), (c) =>
    openStream(c, deps, view, { kind: 'playground', illegal: ERROR_CODES.invalidInput }),
  );
  return app;
}

/**
 * GET beside getAsyncResult with the Bearer key, under the public API's rate limit, in the account's request log as
 * every public call (written when the stream ends); its refusals in the public envelope.
 */
export function publicTaskEvents(deps: AppDeps, requestLog: RequestLog): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const db = deps.database.db;
  app.onError((err, c) => {
    if (err instanceof AppError) {
      for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
      return c.json(refusal(err.code, err.message), err.status);
    }
    return errorResponder(deps.log)(err, c);
  });
  const limited: MiddlewareHandler = rateLimit({
    limit: deps.config.tasks.rateLimitPerMinute,
    trustProxy: deps.config.trustProxy,
    store: deps.rateLimits?.store('api'),
    account: async (c) => (c.get('user') as { id: string } | undefined)?.id,
  });
  const path = LIVE_STATUS.publicPath.slice('/api'.length);
  const view = viewWith(deps.tasks, 'public');
  app.get(path, requireApiKey(db, { refuseSuspended: { reads: () => true } }), limited, requestLog.middleware, (c) =>
    openStream(c, deps, view, { kind: 'public', illegal: PUBLIC_API_CODES.illegalParameter }),
  );
  return app;
}
