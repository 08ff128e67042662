// The status feed over Redis pub/sub (REDIS_URL): one subscriber connection per process, resubscribed and resynced
// after reconnects.
import { Redis } from 'ioredis';
import type { Logger } from '../log';
import { LIVE_STATUS } from '../../src/lib/product-rules';
import { decodeNotice, encodeNotice, feedSubscribers, type StatusFeed } from './status-feed-shared';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface RedisStatusFeedOptions {
  url: string;
  /** REDIS_PREFIX: deployments sharing one Redis keep their notices apart. */
  prefix: string;
  log: Logger;
}

/**
 * Redis cannot join the database transaction: a notice may arrive just before its commit, so the streams read a task
 * again after LIVE_STATUS.recheckMs when a notice showed no change, and re-read all on every reconnect. ioredis keeps
 * the connections alive (TCP keepalive, reconnect with backoff, resubscribe); 'ready' after the first is a reconnect.
 */
export function redisStatusFeed(o: RedisStatusFeedOptions): StatusFeed {
  const subscribers = feedSubscribers();
  const channel = `${o.prefix}${LIVE_STATUS.channel}`;
  const options = {
    keepAlive: LIVE_STATUS.keepAliveMs,
    connectionName: 'dreamapi-status-feed',
    maxRetriesPerRequest: 1,
    retryStrategy: (times: number) => Math.min(LIVE_STATUS.reconnectMinMs * 2 ** times, LIVE_STATUS.reconnectMaxMs),
  };
  let publisher: Redis | undefined;
  let listener: Redis | undefined;
  let pingTimer: NodeJS.Timeout | undefined;
  let warned = false;

  function listen(): Redis {
    const redis = new Redis(o.url, options);
    redis.on('error', (error) => {
      if (!warned) o.log.warn('status feed listener lost Redis; reconnecting', { error: error.message });
      warned = true;
    });
    redis.on('ready', () => {
      warned = false;
      subscribers.resync();
    });
    redis.on('message', (from: string, payload: string) => {
      const notice = from === channel ? decodeNotice(payload) : null;
      if (notice) subscribers.deliver(notice);
    });
    void redis
      .subscribe(channel)
      .catch((error: unknown) => o.log.warn('status feed could not subscribe', { error: message(error) }));
    // A half-open connection answers nothing: a ping that fails makes ioredis drop it and reconnect.
    pingTimer = setInterval(() => {
      if (redis.status === 'ready') void redis.ping().catch(() => redis.disconnect(true));
    }, LIVE_STATUS.pingMs);
    pingTimer.unref();
    return redis;
  }

  return {
    kind: 'redis',
    // Not awaited: a write must not wait on Redis (or stall while it is away; ioredis sends queued notices on
    // reconnect).
    async publish(_executor, task) {
      publisher ??= new Redis(o.url, { ...options, connectionName: 'dreamapi-status-publish' });
      publisher
        .publish(channel, encodeNotice(task))
        .catch((error: unknown) => o.log.warn('status notice not sent', { taskId: task.id, error: message(error) }));
    },
    subscribe(userId, fn) {
      listener ??= listen();
      return subscribers.add(userId, fn);
    },
    connected: () => listener?.status === 'ready',
    async close() {
      clearInterval(pingTimer);
      listener?.disconnect();
      publisher?.disconnect();
    },
  };
}
