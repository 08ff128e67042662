// Test-only: opens a status stream through app.request() (or fetch) and collects its events as they arrive.
import { afterEach } from 'vitest';
import { readEvents, type SseEvent } from '../../src/lib/sdk/sse';

export interface OpenedStream {
  status: number;
  headers: Headers;
  events: SseEvent[];
  /** Resolves once the server ended the stream (or it broke). */
  ended: Promise<void>;
  /** Waits until `check` holds for the events so far. */
  until(check: (events: SseEvent[]) => boolean, timeoutMs?: number): Promise<SseEvent[]>;
  close(): void;
}

/** Reads `res` as an event stream in the background; a refused stream (not 200) has no events and is ended. */
export function collect(res: Response): OpenedStream {
  const events: SseEvent[] = [];
  const controller = new AbortController();
  const waiters = new Set<() => void>();
  const ended =
    res.status === 200 && res.body
      ? (async () => {
          try {
            for await (const e of readEvents(res.body!, controller.signal)) {
              events.push(e);
              for (const w of waiters) w();
            }
          } catch {
            // Closed by the test, or cut: the events so far stay.
          }
        })()
      : Promise.resolve();
  return {
    status: res.status,
    headers: res.headers,
    events,
    ended,
    until(check, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(new Error(`stream events never matched; got ${JSON.stringify(events.map((e) => e.data))}`));
        }, timeoutMs);
        function look() {
          if (!check(events)) return;
          clearTimeout(timer);
          waiters.delete(look);
          resolve(events);
        }
        waiters.add(look);
        look();
        void ended.then(look);
      });
    },
    close: () => controller.abort(),
  };
}

/** `collect` for the calling block's tests: every stream it opened and the test left open is closed after the test. */
export function useStreams(): (res: Response) => OpenedStream {
  const open: OpenedStream[] = [];
  afterEach(() => {
    for (const s of open.splice(0)) s.close();
  });
  return (res) => {
    const s = collect(res);
    open.push(s);
    return s;
  };
}

/** The task view in a stream event's data. */
export const dataOf = <T = { taskId: string; status: string; progress: number }>(e: SseEvent) =>
  JSON.parse(e.data) as T;
