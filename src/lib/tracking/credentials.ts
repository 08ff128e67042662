// The tracking credentials in the worker: access_token then track_config, cached for every tab while fresh, and the
// keys that seal batches (SPEC.md §4, §9).
import { REQUEST, TRACKING, TRACKING_CODES, TRACKING_PATHS, TRACKING_TOKEN } from '../product-rules';
import { randomQueueId, wireEntry } from './batch';
// The file, not the api-contract index: the index would pull zod into the worker bundle.
import { signedText } from '../api-contract/tracking';
import { sealEntries, signBatch } from './cipher';
import type { Answer, AppInfo, ConfigData, EngineFlags, QueuedEntry, TokenData, TrackInfoBody } from './types';

/** Thrown by a transport when no answer came back (offline, timeout, HTTP error page, non-JSON). */
export class NetworkError extends Error {
  override name = 'NetworkError';
}

export interface Transport {
  post<T>(url: string, body: unknown, timeoutMs: number): Promise<Answer<T>>;
}

/** Where the token and config are cached for every tab (SPEC.md §4 "reused if less than 1.8 hours old"). */
export interface CredentialsCache {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
}

export type { EngineFlags };

export interface CachedToken extends TokenData {
  fetchedAt: number;
}
export interface CachedConfig extends ConfigData {
  fetchedAt: number;
  token: string;
}

/** What the credentials need from the engine that owns it: the locked config's key, its URLs and its error path. */
export interface CredentialsHost {
  transport: Transport;
  cache: CredentialsCache;
  appInfo: AppInfo;
  now: () => number;
  random: () => number;
  /** The locked config's appKey; undefined before init. */
  appKey(): string | undefined;
  url(path: string): string;
  reportError(message: string): Promise<void>;
  /** SPEC.md §8 40001: the engine stops polling. */
  keyInvalid(): void;
  /** True for an "over budget" answer, whose Retry-After the engine's next try then waits (RetryClock.overBudget). */
  overBudget(answer: Answer): boolean;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Holds the token and the collector config; shares the engine's flags, which it keeps current. */
export class TrackingCredentials {
  token: CachedToken | null = null;
  remote: CachedConfig | null = null;
  private pending: Promise<boolean> | null = null;

  constructor(
    private readonly host: CredentialsHost,
    private readonly flags: EngineFlags,
  ) {}

  /** True when a token and config are in hand, fetching or reusing cached ones first (SPEC.md §4 flow). */
  ensure(): Promise<boolean> {
    if (this.host.appKey() === undefined || !this.flags.appKeyValid) return Promise.resolve(false);
    if (this.flags.tokenValid && this.flags.configValid) return Promise.resolve(true);
    if (this.pending) return this.pending;
    this.flags.requesting = true;
    this.pending = this.fetch(this.host.appKey()!).finally(() => {
      this.flags.requesting = false;
      this.pending = null;
    });
    return this.pending;
  }

  /** SPEC.md §8 40002: forget the token (and its config) everywhere, so the next send fetches a new one. */
  async drop(): Promise<void> {
    this.flags.tokenValid = false;
    this.flags.configValid = false;
    this.token = null;
    this.remote = null;
    const appKey = this.host.appKey();
    if (appKey !== undefined) {
      await this.host.cache.delete(`session:${appKey}`);
      await this.host.cache.delete(`config:${appKey}`);
    }
  }

  /** The encrypted, signed track_info body for a batch; only with credentials in hand (ensure() answered true). */
  seal(batch: readonly QueuedEntry[]): TrackInfoBody {
    const { token, produceId } = this.token!;
    const { ak } = this.remote!;
    const queueId = randomQueueId(this.host.random);
    const fields = {
      token,
      produceId,
      queueId,
      sendTime: this.host.now(),
      batchCount: batch.length,
      msgEncrypt: sealEntries(batch.map(wireEntry), ak),
    };
    return { ...fields, sign: signBatch(signedText(fields), ak) };
  }

  /** SPEC.md §9: the collector's batchSize once its config came, else 20. */
  get batchSize(): number {
    return this.remote?.batchSize ?? TRACKING.batchSize;
  }

  /** SPEC.md §9: 20 000 ms by default; a config's bufferS is seconds × 1000. */
  get bufferMs(): number {
    return this.remote ? Math.round(this.remote.bufferS * 1000) : TRACKING.bufferMs;
  }

  private fresh(fetchedAt: number): boolean {
    return this.host.now() - fetchedAt < TRACKING.cacheMaxAgeMs;
  }

  private async fetch(appKey: string): Promise<boolean> {
    const { cache } = this.host;
    const key = `session:${appKey}`;
    if (!this.flags.tokenValid) {
      const cached = (await cache.get(key)) as CachedToken | undefined;
      if (cached && this.fresh(cached.fetchedAt)) {
        this.token = cached;
      } else {
        const { appVersion, deviceId, platform, platformVersion } = this.host.appInfo;
        // SPEC.md §7: the access_token body keys are sent in snake_case.
        const body = {
          app_key: appKey,
          device_id: deviceId,
          app_version: appVersion,
          platform,
          platform_version: platformVersion,
          log_version: TRACKING_TOKEN.logVersion,
        };
        const data = await this.call<TokenData>(TRACKING_PATHS.accessToken, body);
        if (!data) return false;
        this.token = { ...data, fetchedAt: this.host.now() };
        await cache.set(key, this.token);
      }
      this.flags.tokenValid = true;
    }
    if (!this.flags.configValid) {
      const cached = (await cache.get(`config:${appKey}`)) as CachedConfig | undefined;
      if (cached && cached.token === this.token!.token && this.fresh(cached.fetchedAt)) {
        this.remote = cached;
      } else {
        const data = await this.call<ConfigData>(TRACKING_PATHS.trackConfig, {
          token: this.token!.token,
          sign: this.token!.sign,
        });
        if (!data) return false;
        this.remote = { ...data, token: this.token!.token, fetchedAt: this.host.now() };
        await cache.set(`config:${appKey}`, this.remote);
      }
      this.flags.configValid = true;
    }
    return true;
  }

  /** One token-flow call; handles 40001 and 40002 (SPEC.md §8) and 40029, and reports other failures. */
  private async call<T>(path: string, body: unknown): Promise<T | null> {
    let answer: Answer<T>;
    try {
      answer = await this.host.transport.post<T>(this.host.url(path), body, REQUEST.timeoutMs);
    } catch (error) {
      await this.host.reportError(`${path} network failure: ${errorText(error)}`);
      return null;
    }
    if (answer.code === TRACKING_CODES.ok && answer.data) return answer.data;
    // Not reported: the message call would only add to the load the collector asked to shed.
    if (this.host.overBudget(answer)) return null;
    if (answer.code === TRACKING_CODES.appKeyError) {
      this.host.keyInvalid();
      return null;
    }
    if (answer.code === TRACKING_CODES.tokenFailure) {
      await this.drop();
      return null;
    }
    await this.host.reportError(`${path} failed with code ${answer.code}: ${answer.msg}`);
    return null;
  }
}
