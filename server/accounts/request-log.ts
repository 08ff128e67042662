// The public API request log: calls are written in batches off the answer's path (one insert per
// REQUEST_LOG.writeEveryMs), keys' last use to the minute, old calls pruned.
import type { Context, MiddlewareHandler } from 'hono';
import type { Kysely } from 'kysely';
import { pageOf, type Schema } from '../db';
import { AppError } from '../http/errors';
import type { Logger } from '../log';
import { ERROR_CODES, REQUEST_LOG } from '../../src/lib/product-rules';
import type { ApiRequestPage } from '../../src/lib/api/types';
import type { AuthEnv } from './auth';
import { apiKeyIdOf } from './api-keys';

interface Call {
  user_id: string;
  key_id: string | null;
  tool: string;
  status: number;
  code: number;
  credits: number;
  task_id: string | null;
  created_at: number;
}

/**
 * What a handler knows about its call beyond the answer's status: the task it made or read, and the credits it held.
 */
const notes = new WeakMap<Request, { taskId?: string; credits?: number; until?: Promise<void> }>();

export function noteApiCall(c: Context, note: { taskId?: string; credits?: number }): void {
  notes.set(c.req.raw, { ...notes.get(c.req.raw), ...note });
}

/**
 * A call answered with a stream (live status): its answer returns as the stream starts, so it is recorded when the
 * stream ends, by the function this answers. A refusal before the stream is recorded at once, as any other.
 */
export function holdApiCall(c: Context): () => void {
  let end!: () => void;
  const until = new Promise<void>((resolve) => (end = resolve));
  notes.set(c.req.raw, { ...notes.get(c.req.raw), until });
  return end;
}

export function createRequestLog(db: Kysely<Schema>, log: Logger, clock: () => number = Date.now) {
  let pending: Call[] = [];
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<void> = Promise.resolve();
  let prunedAt = 0;
  /** Per key, the last-used time last written here: a busy key is written once per resolution, not once per call. */
  const touched = new Map<string, number>();

  async function write(batch: Call[]): Promise<void> {
    // A burst is written in slices, so one insert stays under the engines' limit on bound values (SQLite: 32,766).
    for (let i = 0; i < batch.length; i += REQUEST_LOG.maxBatchRows)
      await db
        .insertInto('api_requests')
        .values(batch.slice(i, i + REQUEST_LOG.maxBatchRows))
        .execute();
    const now = clock();
    const latest = new Map<string, number>();
    for (const call of batch)
      if (call.key_id) latest.set(call.key_id, Math.max(latest.get(call.key_id) ?? 0, call.created_at));
    for (const [keyId, at] of latest) {
      if (at - (touched.get(keyId) ?? 0) < REQUEST_LOG.lastUsedResolutionMs) continue;
      touched.set(keyId, at);
      await db
        .updateTable('api_keys')
        .set({ last_used_at: at })
        .where('id', '=', keyId)
        .where((eb) =>
          eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at - REQUEST_LOG.lastUsedResolutionMs)]),
        )
        .execute();
    }
    if (touched.size > 10_000)
      for (const [keyId, at] of touched) if (now - at >= REQUEST_LOG.lastUsedResolutionMs) touched.delete(keyId);
    if (now - prunedAt >= REQUEST_LOG.pruneEveryMs) {
      prunedAt = now;
      await db
        .deleteFrom('api_requests')
        .where('created_at', '<', now - REQUEST_LOG.retentionMs)
        .execute();
    }
  }

  /** Writes what is pending now; resolves when it (and every earlier write) is stored. */
  function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return chain;
    const batch = pending;
    pending = [];
    chain = chain
      .then(() => write(batch))
      .catch((error: unknown) =>
        log.warn('request log write failed', {
          calls: batch.length,
          error: error instanceof Error ? error.message : String(error),
        }),
      );
    return chain;
  }

  function record(call: Call): void {
    pending.push(call);
    if (pending.length >= REQUEST_LOG.maxBatchRows) void flush();
    else if (timer === undefined) {
      timer = setTimeout(() => void flush(), REQUEST_LOG.writeEveryMs);
      // A pending write does not keep a process alive: the drain flushes it (main.ts).
      timer.unref();
    }
  }

  /**
   * Middleware after the key check: records the call once it is answered (a stream once it ends), errors included.
   * Nothing is awaited on the answer's path; a lost write is logged, never an error for the caller.
   */
  const middleware: MiddlewareHandler<AuthEnv> = async (c, next) => {
    await next();
    const user = c.get('user');
    if (!user) return;
    const note = notes.get(c.req.raw);
    const error = c.error;
    const code =
      error instanceof AppError
        ? error.code
        : error
          ? ERROR_CODES.internal
          : c.res.ok
            ? 0
            : c.res.status === 404
              ? ERROR_CODES.notFound
              : ERROR_CODES.invalidInput;
    const path = c.req.path.replace(/^\/api\//, '');
    const { status } = c.res;
    const write = () =>
      record({
        user_id: user.id,
        key_id: apiKeyIdOf(user) ?? null,
        tool: path.slice(0, REQUEST_LOG.maxToolLength),
        status,
        code,
        credits: note?.credits ?? 0,
        task_id: note?.taskId ?? null,
        created_at: clock(),
      });
    if (note?.until && c.res.ok) void note.until.then(write);
    else write();
  };

  return { middleware, record, flush };
}

export type RequestLog = ReturnType<typeof createRequestLog>;

/** One page of a user's calls, newest first, with the name of the key each was made with. */
export async function apiRequestPage(
  db: Kysely<Schema>,
  userId: string,
  page: number,
  pageSize: number,
): Promise<ApiRequestPage> {
  const rows = db
    .selectFrom('api_requests as r')
    .leftJoin('api_keys as k', 'k.id', 'r.key_id')
    // Named as the answer names them; ids and times are numbers on both engines (connect.ts).
    .select(['r.id', 'r.tool', 'r.status', 'r.code', 'r.credits', 'r.task_id as taskId', 'k.name as keyName'])
    .select('r.created_at as createdAt')
    .where('r.user_id', '=', userId)
    .orderBy('r.id', 'desc');
  return pageOf(rows, page, pageSize, (call) => call);
}
