// Live task status for the SDK: stream() yields each change pushed over Server-Sent Events; wait() uses it and falls
// back to polling.
import { readEvents } from './sse';
import type { TaskResult } from './types';

/** GET path of the stream (the OpenAPI operation streamAsyncResult). */
export const STREAM_PATH = '/api/getAsyncResult/stream';
const EVENT = 'task';
/** Reconnects after a dropped stream: this many in a row without an event, each after a longer wait. */
const MAX_RECONNECTS = 5;
const RECONNECT_BASE_MS = 500;
const DEFAULT_POLL_MS = 1000;

export const isFinal = (r: TaskResult) => r.task.status >= 3;

/** Why a stream could not be had: the answer's status (0: no answer) and message. */
export class StreamRefused extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: number | null,
    readonly retryAfterS: number | null,
  ) {
    super(message);
    this.name = 'StreamRefused';
  }
}

export interface StreamOptions {
  /** Stops the stream; the generator then ends. */
  signal?: AbortSignal;
  /** Resume after this event id (an account stream sends what changed since). */
  lastEventId?: string;
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** Give up after this long (default 10 minutes). */
  timeoutMs?: number;
  /** Polling interval when no stream can be had (default 1 s). */
  intervalMs?: number;
}

interface Transport {
  origin: string;
  apiKey: string;
  fetch: typeof fetch;
  getAsyncResult(body: { taskId: string }): Promise<TaskResult>;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

export function taskStreams(t: Transport) {
  async function open(taskId: string | undefined, lastEventId: string | null, signal?: AbortSignal) {
    const url = `${t.origin}${STREAM_PATH}${taskId ? `?taskId=${encodeURIComponent(taskId)}` : ''}`;
    const headers: Record<string, string> = { authorization: `Bearer ${t.apiKey}`, accept: 'text/event-stream' };
    if (lastEventId) headers['last-event-id'] = lastEventId;
    let res: Response;
    try {
      res = await t.fetch(url, { headers, signal });
    } catch (e) {
      throw new StreamRefused(
        `The stream did not reach the API: ${e instanceof Error ? e.message : String(e)}`,
        0,
        null,
        null,
      );
    }
    if (res.status !== 200 || !res.body || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      const body = (await res.json().catch(() => ({}))) as { code?: number; message?: string };
      const retry = res.headers.get('retry-after');
      throw new StreamRefused(
        body.message ?? `HTTP ${res.status}`,
        res.status,
        body.code ?? null,
        retry ? Number(retry) : null,
      );
    }
    return res.body;
  }

  /**
   * Yields the getAsyncResult view of a task (or, without taskId, of each task of the account) as it changes. A dropped
   * connection is resumed with Last-Event-ID; a refused stream throws StreamRefused. A task stream ends after its final
   * status.
   */
  async function* stream(taskId?: string, o: StreamOptions = {}): AsyncGenerator<TaskResult> {
    let lastEventId = o.lastEventId ?? null;
    let failures = 0;
    while (!o.signal?.aborted) {
      const body = await open(taskId, lastEventId, o.signal);
      try {
        for await (const e of readEvents(body, o.signal)) {
          lastEventId = e.id ?? lastEventId;
          if (e.event !== EVENT) continue;
          failures = 0;
          const result = JSON.parse(e.data) as TaskResult;
          yield result;
          if (taskId && isFinal(result)) return;
        }
      } catch (error) {
        if (o.signal?.aborted) return;
        if (++failures > MAX_RECONNECTS) throw error;
      }
      // The server ended it (a restart drains its streams) or the connection broke: resume where it stopped.
      await sleep(RECONNECT_BASE_MS * 2 ** Math.min(failures, 5), o.signal);
    }
  }

  /**
   * Resolves with the task once it finished: through the stream, or by polling getAsyncResult when no stream can be
   * had.
   */
  async function wait(taskId: string, o: WaitOptions = {}): Promise<TaskResult> {
    const deadline = AbortSignal.timeout(o.timeoutMs ?? 10 * 60_000);
    const signal = o.signal ? AbortSignal.any([o.signal, deadline]) : deadline;
    try {
      for await (const result of stream(taskId, { signal })) if (isFinal(result)) return result;
    } catch (error) {
      // A refusal that polling would get too (no such task, a bad key) is the answer; anything else falls back.
      if (error instanceof StreamRefused && [400, 401, 403, 404].includes(error.status)) throw error;
    }
    for (;;) {
      const result = await t.getAsyncResult({ taskId });
      if (isFinal(result)) return result;
      if (signal.aborted) throw new StreamRefused(`Task ${taskId} is still ${result.task.statusName}`, 0, null, null);
      await sleep(o.intervalMs ?? DEFAULT_POLL_MS, signal);
    }
  }

  return { stream, wait };
}
