// A worker's LISTEN connection for cancels and provider hooks: TCP keepalive, a periodic `select 1`, and a fresh
// connection whenever it fails or stops answering.
import pg from 'pg';
import type { Logger } from '../log';
import { TASK_QUEUE } from '../../src/lib/product-rules';

export interface QueueListenerOptions {
  connectionString: string;
  log: Logger;
  /** channel → what to do with a notification's payload. */
  channels: Record<string, (payload: string) => void>;
  /**
   * After every (re)connection: what was sent while no connection listened is lost, so the caller reads the state
   * again.
   */
  onListening?: () => void;
  /** Seconds between keepalive queries, and how long one may take (TASK_QUEUE.listenKeepaliveS; tests lower it). */
  keepaliveS?: number;
}

export interface QueueListener {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The backend pid of the live connection (tests cut it with pg_terminate_backend); null while reconnecting. */
  pid(): number | null;
}

/**
 * The listener's application_name in pg_stat_activity, so an operator (or a test) can tell it from pooled connections.
 */
export const LISTENER_APPLICATION_NAME = 'dreamapi-queue-listener';

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One session-pinned connection that LISTENs on the given channels. A connection can end (server restart, proxy) or
 * half-open (no error, no notifications): an error, or a keepalive query without an answer in time, replaces it after
 * TASK_QUEUE.listenRetryS, and each new connection calls onListening so missed notifications are made up for.
 */
export function queueListener(o: QueueListenerOptions): QueueListener {
  const keepaliveMs = (o.keepaliveS ?? TASK_QUEUE.listenKeepaliveS) * 1000;
  let client: pg.Client | undefined;
  let backendPid: number | null = null;
  let retryTimer: NodeJS.Timeout | undefined;
  let keepaliveTimer: NodeJS.Timeout | undefined;
  let stopping = false;

  function replace(from: pg.Client, why: string): void {
    if (client !== from || stopping) return;
    o.log.warn('queue listener lost its connection', { error: why });
    client = undefined;
    backendPid = null;
    clearInterval(keepaliveTimer);
    void from.end().catch(() => undefined);
    retryTimer = setTimeout(() => void connect(), TASK_QUEUE.listenRetryS * 1000);
  }

  async function connect(): Promise<void> {
    if (stopping) return;
    // query_timeout bounds the keepalive: a half-open connection never answers it.
    const next = new pg.Client({
      connectionString: o.connectionString,
      keepAlive: true,
      query_timeout: keepaliveMs,
      application_name: LISTENER_APPLICATION_NAME,
    });
    client = next;
    next.on('error', (error) => replace(next, error.message));
    next.on('end', () => replace(next, 'the connection ended'));
    next.on('notification', (n) => {
      if (n.payload) o.channels[n.channel]?.(n.payload);
    });
    try {
      await next.connect();
      for (const channel of Object.keys(o.channels)) await next.query(`LISTEN ${channel}`);
      const { rows } = await next.query<{ pid: number }>('select pg_backend_pid() as pid');
      if (client !== next) return;
      backendPid = rows[0]?.pid ?? null;
    } catch (error) {
      replace(next, `could not connect: ${describe(error)}`);
      return;
    }
    keepaliveTimer = setInterval(() => {
      next.query('select 1').catch((error: unknown) => replace(next, `keepalive failed: ${describe(error)}`));
    }, keepaliveMs);
    keepaliveTimer.unref();
    o.onListening?.();
  }

  return {
    async start() {
      stopping = false;
      await connect();
    },
    async stop() {
      stopping = true;
      clearTimeout(retryTimer);
      clearInterval(keepaliveTimer);
      const last = client;
      client = undefined;
      backendPid = null;
      await last?.end().catch(() => undefined);
    },
    pid: () => backendPid,
  };
}
