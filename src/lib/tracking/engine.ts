// The tracking engine that runs in each tab's worker: config lock, §4 flags, token → config → timed batches, retries.
import { REQUEST, TRACKING, TRACKING_CODES } from '../spec/constants';
import { TRACKING_LIMITS, TRACKING_PATHS, TRACKING_RETRY, TRACKING_TOKEN } from '../spec/tracking';
import { isValidAppKey, isValidDomain, isValidEventPrefix, isValidLogmap } from '../spec/tracking-rules';
import { sealEntries, signBatch, signedText, signMessage } from './cipher';
import type { Answer, AppInfo, ConfigData, Notice, QueuedEntry, TokenData, TrackEntry, TrackerInit, TrackInfoBody } from './types';

/** Thrown by a transport when no answer came back (offline, timeout, HTTP error page, non-JSON). */
export class NetworkError extends Error {
  override name = 'NetworkError';
}

export interface Transport {
  post<T>(url: string, body: unknown, timeoutMs: number): Promise<Answer<T>>;
}

/** The shared durable queue (IndexedDB in the browser). */
export interface EntryQueue {
  add(entries: QueuedEntry[]): Promise<void>;
  /** Oldest first. */
  peek(limit: number): Promise<QueuedEntry[]>;
  forTab(tab: string, limit: number): Promise<QueuedEntry[]>;
  remove(ids: string[]): Promise<void>;
  count(): Promise<number>;
}

/** Where the token and config are cached for every tab (SPEC.md §4 "reused if less than 1.8 hours old"). */
export interface SessionCache {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface EngineDeps {
  transport: Transport;
  queue: EntryQueue;
  cache: SessionCache;
  appInfo: AppInfo;
  /** Tells the other tabs (BroadcastChannel). */
  notify?: (notice: Notice) => void;
  now?: () => number;
  random?: () => number;
}

/** SPEC.md §4 "Flags track token valid, config valid, appKey valid and request in progress". */
export interface EngineFlags {
  tokenValid: boolean;
  configValid: boolean;
  appKeyValid: boolean;
  requesting: boolean;
}

interface CachedToken extends TokenData {
  fetchedAt: number;
}
interface CachedConfig extends ConfigData {
  fetchedAt: number;
  token: string;
}

type SendResult = 'sent' | 'failed' | 'rejected' | 'stopped';

/** SPEC.md §9 "Random queueId 9 to 10 digits": uniform over [10^8, 10^10). */
export function randomQueueId(random: () => number = Math.random): string {
  const min = 10 ** (TRACKING.queueIdMinDigits - 1);
  const max = 10 ** TRACKING.queueIdMaxDigits;
  return String(min + Math.floor(random() * (max - min)));
}

/** The wait before the next try of a failed send: TRACKING_RETRY's jittered backoff after `failures` failures in a row, never over capMs. */
export function retryDelay(failures: number, capMs: number, random: () => number = Math.random): number {
  const { firstDelayMs, factor, jitter } = TRACKING_RETRY;
  const base = Math.min(firstDelayMs * factor ** failures, capMs);
  return Math.round(Math.min(base * (1 + jitter * (2 * random() - 1)), capMs));
}

/** Drops the queue-only `tab` field so it never reaches the wire. */
export function wireEntry({ tab: _tab, ...entry }: QueuedEntry): TrackEntry {
  return entry;
}

export class TrackingEngine {
  readonly flags: EngineFlags = { tokenValid: false, configValid: false, appKeyValid: true, requesting: false };
  private config: TrackerInit | null = null;
  private token: CachedToken | null = null;
  private remote: CachedConfig | null = null;
  private leader = false;
  private running = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Set while a retry waits or is in flight: no other send starts meanwhile. */
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** Runs the waiting retry at once (the browser came back online); null when none waits. */
  private retryNow: (() => Promise<void>) | null = null;
  /** Failed sends in a row: how long the next retry waits. Back to 0 after a send goes through or the network returns. */
  private failures = 0;
  private busy: Promise<void> | null = null;
  private pendingSession: Promise<boolean> | null = null;
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(private readonly deps: EngineDeps) {
    this.now = deps.now ?? Date.now;
    this.random = deps.random ?? Math.random;
  }

  /** SPEC.md §4: the config is locked once init succeeds; later calls are ignored (false). */
  init(config: TrackerInit): boolean {
    if (this.config) return false;
    if (!isValidAppKey(config.appKey) || !isValidDomain(config.domain) || !isValidEventPrefix(config.logPrefix)) return false;
    if (config.baseLogmap !== undefined && !isValidLogmap(config.baseLogmap)) return false;
    this.config = Object.freeze({ ...config });
    return true;
  }

  get lockedConfig(): Readonly<TrackerInit> | null {
    return this.config;
  }

  get isLeader(): boolean {
    return this.leader;
  }

  get timerRunning(): boolean {
    return this.running;
  }

  /** SPEC.md §9: batch size 20 by default, 1 in immediate mode, else the collector's batchSize. */
  get batchSize(): number {
    if (this.config?.immediateReport) return TRACKING.immediateBatchSize;
    return this.remote?.batchSize ?? TRACKING.batchSize;
  }

  /** SPEC.md §9: 20 000 ms by default; a config's bufferS is seconds × 1000. */
  get bufferMs(): number {
    return this.remote ? Math.round(this.remote.bufferS * 1000) : TRACKING.bufferMs;
  }

  get queueLimit(): number {
    return this.config?.maxQueueLimit ?? TRACKING.queueLimit;
  }

  /** A collector URL: the config's domain (or this origin) and the path. */
  url(path: string): string {
    return `${(this.config?.domain ?? '').replace(/\/$/, '')}${path}`;
  }

  /** Entries from this tab (or handed over from a closed one) go into the shared queue; resolves after any send they make due. */
  async enqueue(entries: QueuedEntry[]): Promise<void> {
    if (await this.store(entries)) await this.afterStore();
  }

  /** Writes entries to the shared queue and tells the other tabs; resolves once they are durable (false when none). */
  async store(entries: QueuedEntry[]): Promise<boolean> {
    if (entries.length === 0) return false;
    await this.deps.queue.add(entries);
    this.deps.notify?.({ type: 'enqueued', count: entries.length });
    return true;
  }

  /** A notice from another tab. */
  async onNotice(notice: Notice): Promise<void> {
    if (notice.type === 'enqueued') await this.afterStore();
  }

  /** Called when this tab's worker wins (true) or gives up (false) the leader lock. */
  async setLeader(leader: boolean): Promise<void> {
    this.leader = leader;
    if (!leader) {
      this.stopTimer();
      return;
    }
    // Take over at once: what the previous leader left should not wait a whole buffer interval.
    if ((await this.deps.queue.count()) > 0) {
      this.startTimer();
      await this.flush();
    }
  }

  /** After entries were stored (here or in another tab): the leader starts its timer, and sends now if a batch is full. */
  async afterStore(): Promise<void> {
    if (!this.leader || !this.flags.appKeyValid) return;
    this.startTimer();
    const count = await this.deps.queue.count();
    // A full batch (1 in immediate mode) or a full queue is sent now rather than at the next tick.
    if (count >= this.batchSize || count >= this.queueLimit) await this.flush();
  }

  private startTimer(): void {
    if (this.running || !this.leader || !this.flags.appKeyValid) return;
    this.running = true;
    this.schedule(this.bufferMs);
  }

  /** Stops the batch timer and a waiting retry (a retry in flight finishes). */
  stopTimer(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.retryNow) {
      clearTimeout(this.retryTimer!);
      this.retryTimer = this.retryNow = null;
    }
  }

  /**
   * The browser's `online` event: a waiting retry runs now with the backoff started over, and the leader sends what
   * is queued, so entries held through an outage go as soon as the network is back instead of after the next wait.
   * Resolves once that send (and what follows it) is done.
   */
  online(): Promise<void> {
    this.failures = 0;
    return this.retryNow ? this.retryNow() : this.flush();
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
  }

  private async tick(): Promise<void> {
    this.timer = null;
    if (!this.running || !this.leader || !this.flags.appKeyValid) {
      this.running = false;
      return;
    }
    if ((await this.deps.queue.count()) === 0) {
      // SPEC.md §4: when the queue is empty the timer stops after a 2 s check.
      this.timer = setTimeout(() => void this.stopCheck(), TRACKING.stopCheckDelayMs);
      return;
    }
    await this.flush();
    if (this.running) this.schedule(this.bufferMs);
  }

  private async stopCheck(): Promise<void> {
    this.timer = null;
    if (!this.running) return;
    if ((await this.deps.queue.count()) === 0) {
      this.running = false;
      return;
    }
    await this.tick();
  }

  /** Sends everything queued, batch by batch, one send at a time; resolves when done. */
  flush(): Promise<void> {
    if (this.busy) return this.busy;
    this.busy = this.sendAll().finally(() => {
      this.busy = null;
    });
    return this.busy;
  }

  private async sendAll(): Promise<void> {
    while (this.leader && this.flags.appKeyValid && !this.retryTimer) {
      const batch = await this.deps.queue.peek(Math.min(this.batchSize, TRACKING_LIMITS.batchMaxEntries));
      if (batch.length === 0) return;
      const result = await this.sendBatch(batch);
      if (result === 'failed' || result === 'rejected') {
        this.scheduleRetry(batch, result === 'rejected');
        return;
      }
      if (result !== 'sent') return;
    }
  }

  /**
   * SPEC.md §8 "Failed log sends are retried once after the buffer interval", kept batch by batch: a batch the
   * collector refuses is retried once, then dropped. Only the wait changed: TRACKING_RETRY's backoff (about 1 s, 2 s,
   * 4 s … never longer than the buffer interval, the spec's figure) or none once the browser is back online, so a short
   * outage drains in seconds rather than at the next 20 s tick. A network failure is retried as long as it lasts.
   */
  private scheduleRetry(batch: QueuedEntry[], refused: boolean): void {
    const run = () => {
      clearTimeout(timer);
      this.retryNow = null;
      return this.retry(batch, refused);
    };
    const timer = setTimeout(() => void run(), retryDelay(this.failures++, this.bufferMs, this.random));
    this.retryTimer = timer;
    this.retryNow = run;
  }

  private async retry(batch: QueuedEntry[], refusedBefore: boolean): Promise<void> {
    const result = await this.sendBatch(batch);
    this.retryTimer = null;
    if (result === 'rejected' && refusedBefore) {
      // The collector refused the batch twice for what it holds, not for a passing fault: keeping it would block
      // the queue forever. It is dropped and the reason was reported (docs/tracking-protocol.md "Retries").
      await this.deps.queue.remove(batch.map((e) => e.entryId));
      await this.reportError(`track_info dropped ${batch.length} entries after a retry: ${batch.map((e) => e.entryId).join(',')}`);
    } else if (result === 'failed' || result === 'rejected') {
      // A network failure keeps the entries (they stay durable); a first refusal earns the batch its one retry.
      if (this.leader && this.flags.appKeyValid) this.scheduleRetry(batch, refusedBefore || result === 'rejected');
      return;
    }
    // Through (or dropped): the rest of the queue goes now rather than at the next tick.
    if (result !== 'stopped') await this.flush();
    if (this.running && !this.timer) this.schedule(this.bufferMs);
  }

  /** One POST track_info; removes the entries and notifies other tabs on success (SPEC.md §4). */
  private async sendBatch(batch: QueuedEntry[], tokenRetried = false): Promise<SendResult> {
    if (!(await this.ensureSession())) return this.flags.appKeyValid ? 'failed' : 'stopped';
    const body = this.sealBatch(batch);
    let answer: Answer;
    try {
      answer = await this.deps.transport.post(this.url(TRACKING_PATHS.trackInfo), body, REQUEST.timeoutMs);
    } catch (error) {
      await this.reportError(`track_info network failure: ${errorText(error)}`);
      return 'failed';
    }
    if (answer.code === TRACKING_CODES.ok) {
      this.failures = 0;
      const ids = batch.map((e) => e.entryId);
      await this.deps.queue.remove(ids);
      this.deps.notify?.({ type: 'sent', ids });
      return 'sent';
    }
    if (answer.code === TRACKING_CODES.tokenFailure && !tokenRetried) {
      await this.dropSession();
      return this.sendBatch(batch, true);
    }
    if (answer.code === TRACKING_CODES.appKeyError) {
      this.markKeyInvalid();
      return 'stopped';
    }
    await this.reportError(`track_info failed with code ${answer.code}: ${answer.msg}`);
    return answer.code === TRACKING_CODES.tokenFailure ? 'failed' : 'rejected';
  }

  /** Builds the encrypted, signed track_info body (also used for page-leave beacons). */
  sealBatch(batch: readonly QueuedEntry[]): TrackInfoBody {
    const { token, produceId } = this.token!;
    const msgEncrypt = sealEntries(batch.map(wireEntry), this.remote!.ak);
    const fields = { token, produceId, queueId: randomQueueId(this.random), sendTime: this.now(), batchCount: batch.length, msgEncrypt };
    return { ...fields, sign: signBatch(signedText(fields), this.remote!.ak) };
  }

  /** True when a token and config are in hand, fetching or reusing cached ones first (SPEC.md §4 flow). */
  ensureSession(): Promise<boolean> {
    if (!this.config || !this.flags.appKeyValid) return Promise.resolve(false);
    if (this.flags.tokenValid && this.flags.configValid) return Promise.resolve(true);
    if (this.pendingSession) return this.pendingSession;
    this.flags.requesting = true;
    this.pendingSession = this.fetchSession().finally(() => {
      this.flags.requesting = false;
      this.pendingSession = null;
    });
    return this.pendingSession;
  }

  private fresh(fetchedAt: number): boolean {
    return this.now() - fetchedAt < TRACKING.cacheMaxAgeMs;
  }

  private async fetchSession(): Promise<boolean> {
    const key = `session:${this.config!.appKey}`;
    if (!this.flags.tokenValid) {
      const cached = (await this.deps.cache.get(key)) as CachedToken | undefined;
      if (cached && this.fresh(cached.fetchedAt)) {
        this.token = cached;
      } else {
        const { appVersion, deviceId, platform, platformVersion } = this.deps.appInfo;
        // SPEC.md §7: the access_token body keys are sent in snake_case.
        const body = {
          app_key: this.config!.appKey,
          device_id: deviceId,
          app_version: appVersion,
          platform,
          platform_version: platformVersion,
          log_version: TRACKING_TOKEN.logVersion,
        };
        const data = await this.call<TokenData>(TRACKING_PATHS.accessToken, body);
        if (!data) return false;
        this.token = { ...data, fetchedAt: this.now() };
        await this.deps.cache.set(key, this.token);
      }
      this.flags.tokenValid = true;
    }
    if (!this.flags.configValid) {
      const cached = (await this.deps.cache.get(`config:${this.config!.appKey}`)) as CachedConfig | undefined;
      if (cached && cached.token === this.token!.token && this.fresh(cached.fetchedAt)) {
        this.remote = cached;
      } else {
        const data = await this.call<ConfigData>(TRACKING_PATHS.trackConfig, { token: this.token!.token, sign: this.token!.sign });
        if (!data) return false;
        this.remote = { ...data, token: this.token!.token, fetchedAt: this.now() };
        await this.deps.cache.set(`config:${this.config!.appKey}`, this.remote);
      }
      this.flags.configValid = true;
    }
    return true;
  }

  /** One token-flow call; handles 40001 and 40002 (SPEC.md §8) and reports other failures. */
  private async call<T>(path: string, body: unknown): Promise<T | null> {
    let answer: Answer<T>;
    try {
      answer = await this.deps.transport.post<T>(this.url(path), body, REQUEST.timeoutMs);
    } catch (error) {
      await this.reportError(`${path} network failure: ${errorText(error)}`);
      return null;
    }
    if (answer.code === TRACKING_CODES.ok && answer.data) return answer.data;
    if (answer.code === TRACKING_CODES.appKeyError) {
      this.markKeyInvalid();
      return null;
    }
    if (answer.code === TRACKING_CODES.tokenFailure) {
      await this.dropSession();
      return null;
    }
    await this.reportError(`${path} failed with code ${answer.code}: ${answer.msg}`);
    return null;
  }

  /** SPEC.md §8 40002: forget the token (and its config) everywhere, so the next send fetches a new one. */
  async dropSession(): Promise<void> {
    this.flags.tokenValid = false;
    this.flags.configValid = false;
    this.token = null;
    this.remote = null;
    if (this.config) {
      await this.deps.cache.delete(`session:${this.config.appKey}`);
      await this.deps.cache.delete(`config:${this.config.appKey}`);
    }
  }

  /** SPEC.md §8 40001: stop polling and mark the key invalid. */
  private markKeyInvalid(): void {
    this.flags.appKeyValid = false;
    this.stopTimer();
  }

  /** SPEC.md §8: other codes and network failures go to the message endpoint and the monitoring service. */
  async reportError(message: string): Promise<void> {
    if (!this.config) return;
    const text = message.slice(0, TRACKING_LIMITS.messageMaxLength);
    const { appVersion, deviceId, platform, platformVersion } = this.deps.appInfo;
    const appKey = this.config.appKey;
    const body = { deviceId, appKey, sign: signMessage(appKey, deviceId, text), appVersion, platform, platformVersion, message: text };
    const monitor = { appKey, deviceId, kind: 'error', name: 'tracking', message: text, page: '' };
    // Failures of the error reports themselves are swallowed: reporting them would loop.
    await Promise.allSettled([
      this.deps.transport.post(this.url(TRACKING_PATHS.message), body, REQUEST.timeoutMs),
      this.deps.transport.post(this.url(TRACKING_PATHS.monitor), monitor, TRACKING.monitorTimeoutMs),
    ]);
  }

  /** Sealed beacon bodies for one tab's unsent entries, each under the beacon size limit; [] without a session. */
  async sealForTab(tab: string): Promise<string[]> {
    if (!this.flags.tokenValid || !this.flags.configValid) return [];
    const entries = await this.deps.queue.forTab(tab, TRACKING_LIMITS.storeMaxEntries);
    return splitSealed(entries, (part) => JSON.stringify(this.sealBatch(part)), TRACKING_LIMITS.beaconMaxBytes);
  }
}

/**
 * Seals entries into as few bodies as fit under maxBytes each: whole when it fits, else halves, recursively.
 * A single entry over the limit cannot happen (entries are capped far below it) and is sent alone.
 */
export function splitSealed<T>(entries: readonly T[], seal: (part: readonly T[]) => string, maxBytes: number): string[] {
  if (entries.length === 0) return [];
  const body = seal(entries);
  if (entries.length === 1 || new TextEncoder().encode(body).length <= maxBytes) return [body];
  const half = Math.ceil(entries.length / 2);
  return [...splitSealed(entries.slice(0, half), seal, maxBytes), ...splitSealed(entries.slice(half), seal, maxBytes)];
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
