// The status feed on PostgreSQL: NOTIFY inside the writing transaction, one LISTEN session per process with keepalive,
// ping and backoff.
import { sql } from 'kysely';
import pg from 'pg';
import type { Logger } from '../log';
import { LIVE_STATUS } from '../../src/lib/product-rules';
import { decodeNotice, encodeNotice, feedSubscribers, type StatusFeed } from './status-feed-shared';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface PgStatusFeedOptions {
  connectionString: string;
  log: Logger;
  /** Shown in pg_stat_activity, so an operator (or a test) can find and cut the listener's session. */
  applicationName?: string;
}

/**
 * pg_notify() in the transaction that writes the status is delivered when it commits and dropped when it rolls back, so
 * a listener never hears of a change it cannot read yet. The listener's session is checked three ways, because a
 * half-open TCP connection reports nothing: TCP keepalive, a `select 1` every LIVE_STATUS.pingMs that must answer
 * within pingTimeoutMs, and pg's error/end events. A lost session is replaced with doubling backoff; every (re)connect
 * tells the streams to re-read (resync), as notices sent while it was away are gone.
 */
export function pgStatusFeed(o: PgStatusFeedOptions): StatusFeed {
  const subscribers = feedSubscribers();
  const applicationName = o.applicationName ?? 'dreamapi-status-feed';
  let client: pg.Client | undefined;
  let live = false;
  let started = false;
  let closed = false;
  let backoffMs: number = LIVE_STATUS.reconnectMinMs;
  let retryTimer: NodeJS.Timeout | undefined;
  let pingTimer: NodeJS.Timeout | undefined;

  function lost(from: pg.Client, why: string) {
    if (client !== from) return;
    client = undefined;
    live = false;
    clearInterval(pingTimer);
    void from.end().catch(() => undefined);
    if (closed) return;
    o.log.warn('status feed listener lost its connection; reconnecting', { error: why, inMs: backoffMs });
    retryTimer = setTimeout(() => void connect(), backoffMs);
    retryTimer.unref();
    backoffMs = Math.min(backoffMs * 2, LIVE_STATUS.reconnectMaxMs);
  }

  async function ping(from: pg.Client) {
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('ping unanswered')), LIVE_STATUS.pingTimeoutMs).unref(),
    );
    try {
      await Promise.race([from.query('select 1'), timeout]);
    } catch (error) {
      lost(from, message(error));
    }
  }

  async function connect(): Promise<void> {
    if (closed) return;
    const next = new pg.Client({
      connectionString: o.connectionString,
      keepAlive: true,
      keepAliveInitialDelayMillis: LIVE_STATUS.keepAliveMs,
      application_name: applicationName,
      connectionTimeoutMillis: LIVE_STATUS.pingTimeoutMs,
    });
    client = next;
    next.on('error', (error) => lost(next, error.message));
    next.on('end', () => lost(next, 'connection ended'));
    next.on('notification', (n) => {
      const notice = n.channel === LIVE_STATUS.channel ? decodeNotice(n.payload) : null;
      if (notice) subscribers.deliver(notice);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${LIVE_STATUS.channel}`);
    } catch (error) {
      lost(next, message(error));
      return;
    }
    if (client !== next) return;
    live = true;
    backoffMs = LIVE_STATUS.reconnectMinMs;
    pingTimer = setInterval(() => void ping(next), LIVE_STATUS.pingMs);
    pingTimer.unref();
    subscribers.resync();
  }

  return {
    kind: 'postgres',
    async publish(executor, task) {
      try {
        await sql`select pg_notify(${LIVE_STATUS.channel}, ${encodeNotice(task)})`.execute(executor);
      } catch (error) {
        // Inside a transaction a failed statement aborts it: rethrown there, so the write fails visibly rather than
        // commit unheard.
        if (executor.isTransaction) throw error;
        o.log.warn('status notice not sent', { taskId: task.id, error: message(error) });
      }
    },
    subscribe(userId, listener) {
      if (!started && !closed) {
        started = true;
        void connect();
      }
      return subscribers.add(userId, listener);
    },
    connected: () => live,
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      clearInterval(pingTimer);
      const last = client;
      client = undefined;
      live = false;
      await last?.end().catch(() => undefined);
    },
  };
}
