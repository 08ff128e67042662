// The tracking engine that runs in each tab's worker: config lock, queue, timed batches, sends and retries (SPEC.md §4,
// §8, §9).
import { REQUEST, TRACKING, TRACKING_CODES, TRACKING_LIMITS, TRACKING_PATHS, initOptionsFault } from '../product-rules';
import { splitSealed } from './batch';
import { BatchTimer } from './batch-timer';
import { sendErrorReport } from './report';
import { RetryClock } from './retry';
import { errorText, TrackingCredentials, type EngineFlags, type CredentialsCache, type Transport } from './credentials';
import type { Answer, AppInfo, Notice, QueuedEntry, TrackerInit } from './types';

/** The shared durable queue (IndexedDB in the browser). */
export interface EntryQueue {
  add(entries: QueuedEntry[]): Promise<void>;
  /** Oldest first. */
  peek(limit: number): Promise<QueuedEntry[]>;
  forTab(tab: string, limit: number): Promise<QueuedEntry[]>;
  remove(ids: string[]): Promise<void>;
  count(): Promise<number>;
}

export interface EngineDeps {
  transport: Transport;
  queue: EntryQueue;
  cache: CredentialsCache;
  appInfo: AppInfo;
  /** Tells the other tabs (BroadcastChannel). */
  notify?: (notice: Notice) => void;
  now?: () => number;
  random?: () => number;
}

type SendResult = 'sent' | 'failed' | 'rejected' | 'stopped';

export class TrackingEngine {
  readonly flags: EngineFlags = { tokenValid: false, configValid: false, appKeyValid: true, requesting: false };
  private config: TrackerInit | null = null;
  private leader = false;
  private busy: Promise<void> | null = null;
  private readonly session: TrackingCredentials;
  private readonly retries: RetryClock;
  private readonly batchTimer = new BatchTimer({
    canSend: () => this.leader && this.flags.appKeyValid,
    bufferMs: () => this.bufferMs,
    queued: () => this.deps.queue.count(),
    flush: () => this.flush(),
  });

  constructor(private readonly deps: EngineDeps) {
    const { transport, cache, appInfo, now = Date.now, random = Math.random } = deps;
    this.retries = new RetryClock(random);
    const host = {
      transport,
      cache,
      appInfo,
      now,
      random,
      appKey: () => this.config?.appKey,
      url: (path: string) => this.url(path),
    };
    const hooks = {
      reportError: (message: string) => this.reportError(message),
      keyInvalid: () => this.markKeyInvalid(),
    };
    const overBudget = (answer: Answer) => this.retries.overBudget(answer);
    this.session = new TrackingCredentials({ ...host, ...hooks, overBudget }, this.flags);
  }

  /** SPEC.md §4: the config is locked once init succeeds; later calls are ignored (false). */
  init(config: TrackerInit): boolean {
    if (this.config || initOptionsFault(config)) return false;
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
    return this.batchTimer.isRunning;
  }

  /** SPEC.md §9: batch size 20 by default, 1 in immediate mode, else the collector's batchSize. */
  get batchSize(): number {
    return this.config?.immediateReport ? TRACKING.immediateBatchSize : this.session.batchSize;
  }

  /** SPEC.md §9: 20 000 ms by default, the collector's bufferS once its config came. */
  get bufferMs(): number {
    return this.session.bufferMs;
  }

  get queueLimit(): number {
    return this.config?.maxQueueLimit ?? TRACKING.queueLimit;
  }

  /** A collector URL: the config's domain (or this origin) and the path. */
  url(path: string): string {
    return `${(this.config?.domain ?? '').replace(/\/$/, '')}${path}`;
  }

  /**
   * Entries from this tab (or handed over from a closed one) go into the shared queue; resolves after any send they
   * make due.
   */
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
      this.batchTimer.start();
      await this.flush();
    }
  }

  /**
   * After entries were stored (here or in another tab): the leader starts its timer, and sends now if a batch is full.
   */
  async afterStore(): Promise<void> {
    if (!this.leader || !this.flags.appKeyValid) return;
    this.batchTimer.start();
    const count = await this.deps.queue.count();
    // A full batch (1 in immediate mode) or a full queue is sent now rather than at the next tick.
    if (count >= this.batchSize || count >= this.queueLimit) await this.flush();
  }

  /** Stops the batch timer and a waiting retry (a retry in flight finishes). */
  stopTimer(): void {
    this.batchTimer.stop();
    this.retries.cancel();
  }

  /**
   * The browser's `online` event: a waiting retry runs now with the backoff started over, and the leader sends what
   * is queued, so entries held through an outage go as soon as the network is back instead of after the next wait.
   * Resolves once that send (and what follows it) is done.
   */
  online(): Promise<void> {
    return this.retries.runWaiting() ?? this.flush();
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
    while (this.leader && this.flags.appKeyValid && !this.retries.pending) {
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
   * outage drains in seconds rather than at the next 20 s tick. A network failure, or an answer that the collector is
   * over a budget (40029), is retried as long as it lasts; the latter no sooner than its Retry-After.
   */
  private scheduleRetry(batch: QueuedEntry[], refused: boolean): void {
    this.retries.schedule(this.bufferMs, () => this.retry(batch, refused));
  }

  private async retry(batch: QueuedEntry[], refusedBefore: boolean): Promise<void> {
    const result = await this.sendBatch(batch);
    this.retries.settled();
    if (result === 'rejected' && refusedBefore) {
      // The collector refused the batch twice for what it holds, not for a passing fault: keeping it would block
      // the queue forever. It is dropped and the reason was reported (docs/tracking-protocol.md "Retries").
      await this.deps.queue.remove(batch.map((e) => e.entryId));
      await this.reportError(
        `track_info dropped ${batch.length} entries after a retry: ${batch.map((e) => e.entryId).join(',')}`,
      );
    } else if (result === 'failed' || result === 'rejected') {
      // A network failure or a rate limit keeps the entries (they stay durable); a first refusal earns the batch its
      // one retry.
      if (this.leader && this.flags.appKeyValid) this.scheduleRetry(batch, refusedBefore || result === 'rejected');
      return;
    }
    // Through (or dropped): the rest of the queue goes now rather than at the next tick.
    if (result !== 'stopped') await this.flush();
    this.batchTimer.resume();
  }

  /** One POST track_info; removes the entries and notifies other tabs on success (SPEC.md §4). */
  private async sendBatch(batch: QueuedEntry[], tokenRetried = false): Promise<SendResult> {
    if (!(await this.ensureSession())) return this.flags.appKeyValid ? 'failed' : 'stopped';
    const body = this.session.seal(batch);
    let answer: Answer;
    try {
      answer = await this.deps.transport.post(this.url(TRACKING_PATHS.trackInfo), body, REQUEST.timeoutMs);
    } catch (error) {
      await this.reportError(`track_info network failure: ${errorText(error)}`);
      return 'failed';
    }
    if (answer.code === TRACKING_CODES.ok) {
      this.retries.reset();
      const ids = batch.map((e) => e.entryId);
      await this.deps.queue.remove(ids);
      this.deps.notify?.({ type: 'sent', ids });
      return 'sent';
    }
    // Over a budget is "try later", not a refusal: the batch is kept, never dropped (docs/tracking-protocol.md
    // "Retries").
    if (this.retries.overBudget(answer)) return 'failed';
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

  /** True when a token and config are in hand, fetching or reusing cached ones first (SPEC.md §4 flow). */
  ensureSession(): Promise<boolean> {
    return this.session.ensure();
  }

  /** SPEC.md §8 40002: forget the token (and its config) everywhere, so the next send fetches a new one. */
  dropSession(): Promise<void> {
    return this.session.drop();
  }

  /** SPEC.md §8 40001: stop polling and mark the key invalid. */
  private markKeyInvalid(): void {
    this.flags.appKeyValid = false;
    this.stopTimer();
  }

  /** SPEC.md §8: other codes and network failures go to the message endpoint and the monitoring service. */
  async reportError(message: string): Promise<void> {
    if (this.config)
      await sendErrorReport({ ...this.deps, url: (path) => this.url(path) }, this.config.appKey, message);
  }

  /** Sealed beacon bodies for one tab's unsent entries, each under the beacon size limit; [] without a session. */
  async sealForTab(tab: string): Promise<string[]> {
    if (!this.flags.tokenValid || !this.flags.configValid) return [];
    const entries = await this.deps.queue.forTab(tab, TRACKING_LIMITS.storeMaxEntries);
    return splitSealed(entries, (part) => JSON.stringify(this.session.seal(part)), TRACKING_LIMITS.beaconMaxBytes);
  }
}
