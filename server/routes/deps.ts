// What every route area receives: configuration, database, logger and task system, built once by main.ts or a test.
import type { Config } from '../config';
import type { AppDatabase } from '../db';
import type { Logger } from '../log';
import type { Mailer } from '../accounts/mailer';
import type { TaskSystem } from '../tasks';
import type { RateLimitStores } from '../http/redis-rate-limit';
import type { Lifecycle } from '../lifecycle/state';
import type { RequestLog } from '../accounts/request-log';
import type { UploadGate } from '../media';

export interface AppDeps {
  config: Config;
  database: AppDatabase;
  log: Logger;
  /** Sends login codes; tests pass one that records mail, otherwise it is built from config (SMTP_URL). */
  mailer?: Mailer;
  /** Tasks, queue, media and engines; main.ts builds and starts it, tests build theirs in server/test-support. */
  tasks: TaskSystem;
  /**
   * Where request budgets are counted (Redis with REDIS_URL, shared by every instance); unset: this process's memory.
   */
  rateLimits?: RateLimitStores;
  /** Serving or draining (main.ts sets it on SIGTERM; /readyz reads it); unset: always serving. */
  lifecycle?: Lifecycle;
  /**
   * The public API's request log; main.ts passes its own to write what is pending when it stops. Unset: the app makes
   * one.
   */
  requestLog?: RequestLog;
  /**
   * Uploads being received at once (caps in config.uploads); tests pass one to see or fill it. Unset: the app makes
   * one.
   */
  uploadGate?: UploadGate;
}
