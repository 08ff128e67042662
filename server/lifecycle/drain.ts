// The graceful drain on SIGTERM: not ready, stop accepting, finish or hand back running tasks by the deadline, then
// close everything.
import type { Server } from 'node:http';
import type { Logger } from '../log';
import { settlesWithin } from '../tasks/hand-back';
import type { Lifecycle } from './state';

/** What a draining process closes, in this order. */
export interface DrainParts {
  lifecycle: Lifecycle;
  log: Logger;
  /** Open live status streams: ended when the port closes, so their clients resume on another instance. */
  streams?: { close(): void };
  /** The listener on PORT. */
  server: Pick<Server, 'close' | 'closeIdleConnections' | 'closeAllConnections'>;
  /** Running tasks get drainTimeoutMs to finish; those still running then go back to the queue. */
  tasks: { stop(drainMs?: number): Promise<void> };
  /**
   * The request log's pending calls, shared counters (Redis) and spans still buffered (tracing), then the database,
   * last.
   */
  closers: Array<{ name: string; close(): Promise<void> }>;
  database: { close(): Promise<void> };
  /** /readyz answers 503 for this long first, while requests are still served (DRAIN_DELAY_S). */
  drainDelayMs: number;
  /** DRAIN_TIMEOUT_S: how long running tasks and open requests may take. */
  drainTimeoutMs: number;
}

/**
 * How often idle keep-alive connections are closed while requests finish: a connection that just answered goes then.
 */
const IDLE_SWEEP_MS = 250;

/**
 * Collector batches are committed before they are answered (server/tracking/group-commit.ts), so once every open
 * request has its answer the tracking buffer is empty: waiting for the listener to close is what flushes it.
 */
export async function drain(p: DrainParts): Promise<void> {
  const { log } = p;
  p.lifecycle.draining = true;
  log.info('draining', { delayMs: p.drainDelayMs, timeoutMs: p.drainTimeoutMs });
  if (p.drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, p.drainDelayMs));

  // Stop accepting: no new connection; open ones finish their request, idle ones are closed as they become idle.
  const listenerClosed = new Promise<void>((resolve) => p.server.close(() => resolve()));
  p.streams?.close();
  p.server.closeIdleConnections();
  const sweep = setInterval(() => p.server.closeIdleConnections(), IDLE_SWEEP_MS);
  sweep.unref();
  const requestsDone = settlesWithin(listenerClosed, p.drainTimeoutMs).then((closed) => {
    if (!closed) {
      log.warn('requests still open at the drain deadline; closing their connections');
      p.server.closeAllConnections();
    }
  });
  const started = Date.now();
  await Promise.all([p.tasks.stop(p.drainTimeoutMs), requestsDone]);
  clearInterval(sweep);
  log.info('requests and tasks drained', { ms: Date.now() - started });

  for (const closer of p.closers) {
    await closer
      .close()
      .catch((error: unknown) =>
        log.warn(`closing ${closer.name} failed`, { error: error instanceof Error ? error.message : String(error) }),
      );
  }
  await p.database.close();
}
