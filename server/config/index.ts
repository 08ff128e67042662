// The server's configuration: read once from the environment, validated, with defaults that work locally.
import path from 'node:path';
import { z } from 'zod';
import { SIGNUP_CREDITS_DEFAULT, UPLOADS_IN_FLIGHT } from '../../src/lib/product-rules';
import type { LogLevel } from '../log';
import { parseProxyTrust, type ProxyTrust } from '../http/client-ip';
import { taskConfig, taskEnvShape, type TaskConfig } from './tasks';
import { s3Config, s3EnvShape, type S3Config } from './s3';
import { redisConfig, redisEnvShape, type RedisConfig } from './redis';
import { queueConfig, queueEnvShape, type QueueConfig } from './queue';
import { opsConfig, opsEnvShape, type OpsConfig } from './ops';
import { databaseConfig, databaseEnvShape, type DatabaseConfig } from './database';
import { trackingConfig, trackingEnvShape, type TrackingConfig } from './tracking';
import { csv } from './lists';

export type { TaskConfig } from './tasks';
export type { S3Config } from './s3';
export type { RedisConfig } from './redis';
export type { QueueConfig, Role } from './queue';
export type { OpsConfig } from './ops';
export type { DatabaseConfig } from './database';
export type { TrackingConfig } from './tracking';

const port = z.coerce.number().int().min(0).max(65535);

const envSchema = z
  .object({
    PORT: port.default(8787),
    HOST: z.string().min(1).default('0.0.0.0'),
    PUBLIC_URL: z.url().optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z.string().min(1).optional(),
    SITE_DIR: z.string().min(1).default('./dist'),
    SITE_ORIGINS: csv.optional(),
    BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(1024 * 1024),
    // false, a number of proxies in front (true is one), or the proxies' addresses and CIDRs
    // (server/http/client-ip.ts).
    TRUST_PROXY: z
      .string()
      .default('false')
      .transform((value, ctx) => {
        try {
          return parseProxyTrust(value);
        } catch (error) {
          ctx.addIssue({
            code: 'custom',
            message: `must be false, a number of proxies, or their addresses and CIDRs (${error instanceof Error ? error.message : String(error)})`,
          });
          return z.NEVER;
        }
      }),
    // Uploads being received at once (src/lib/product-rules UPLOADS_IN_FLIGHT; docs/security.md "Uploads in flight").
    UPLOADS_PER_ACCOUNT: z.coerce.number().int().min(1).default(UPLOADS_IN_FLIGHT.perAccount),
    UPLOADS_PER_CLIENT: z.coerce.number().int().min(1).default(UPLOADS_IN_FLIGHT.perClient),
    UPLOAD_BYTES_IN_FLIGHT: z.coerce
      .number()
      .int()
      .min(1024 * 1024)
      .default(UPLOADS_IN_FLIGHT.processBytes),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
    // Accounts: server secret, mail, where OAuth sends the browser, identity providers.
    SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
    SMTP_URL: z.url().optional(),
    MAIL_FROM: z.string().min(3).default('DreamAPI <no-reply@localhost>'),
    SITE_URL: z.url().optional(),
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    GOOGLE_ISSUER: z.url().default('https://accounts.google.com'),
    GOOGLE_AUTHORIZATION_ENDPOINT: z.url().default('https://accounts.google.com/o/oauth2/v2/auth'),
    GOOGLE_TOKEN_ENDPOINT: z.url().default('https://oauth2.googleapis.com/token'),
    GITHUB_CLIENT_ID: z.string().min(1).optional(),
    GITHUB_CLIENT_SECRET: z.string().min(1).optional(),
    GITHUB_AUTHORIZATION_ENDPOINT: z.url().default('https://github.com/login/oauth/authorize'),
    GITHUB_TOKEN_ENDPOINT: z.url().default('https://github.com/login/oauth/access_token'),
    GITHUB_API_URL: z.url().default('https://api.github.com'),
    // Payments (docs/payments.md): Stripe keys; without them Buy explains that payments are not configured.
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_/, 'must be a Stripe secret key (sk_… or rk_…)')
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_/, 'must be a Stripe webhook signing secret (whsec_…)')
      .optional(),
    STRIPE_API_BASE: z.url().optional(),
    // Contact form: where messages from /contact-us are mailed when SMTP_URL is set.
    SUPPORT_EMAIL: z.email().optional(),
    // Credits a new account starts with (src/lib/product-rules/signup.ts); 0 switches the grant off.
    SIGNUP_CREDITS: z.coerce.number().int().min(0).max(1_000_000).default(SIGNUP_CREDITS_DEFAULT),
  })
  .extend(taskEnvShape)
  .extend(s3EnvShape)
  .extend(redisEnvShape)
  .extend(queueEnvShape)
  .extend(opsEnvShape)
  .extend(databaseEnvShape)
  .extend(trackingEnvShape);

/** One identity provider's client registration and endpoints; null clientId means the provider is off. */
export interface OAuthProviderConfig {
  clientId: string | null;
  clientSecret: string | null;
  authorizationEndpoint: string;
  tokenEndpoint: string;
}

export interface Config {
  port: number;
  host: string;
  /** Where people reach the site and API; used in printed URLs and links in mail. */
  publicUrl: string;
  dataDir: string;
  databaseUrl: string;
  /**
   * Pool sizes per role and where LISTEN connects (DATABASE_POOL_MAX, DATABASE_DIRECT_URL; server/config/database.ts).
   */
  database: DatabaseConfig;
  siteDir: string;
  /** Origins allowed to call the API from a browser (CORS). */
  siteOrigins: string[];
  bodyLimitBytes: number;
  /** Which hops are our own proxies (TRUST_PROXY); false: the socket's peer is the client. */
  trustProxy: ProxyTrust;
  /** Uploads received at once: per account, per client address, and bytes announced per process. */
  uploads: { perAccount: number; perClient: number; processBytes: number };
  logLevel: LogLevel;
  shutdownTimeoutMs: number;
  /** Tasks, engines, media, public API limits and webhooks (server/config/tasks.ts). */
  tasks: TaskConfig;
  /** Media in an S3-compatible bucket (S3_*, server/config/s3.ts); null keeps it on local disk (MEDIA_DIR). */
  s3: S3Config;
  /** Shared request budgets (REDIS_URL, REDIS_PREFIX); null: each process counts in its own memory. */
  redis: RedisConfig;
  /** Process role and job queue (ROLE, QUEUE, QUEUE_*; docs/scaling.md "Job queue"). */
  queue: QueueConfig;
  /** Metrics, tracing and the graceful drain (METRICS_*, OTEL_*, DRAIN_*; docs/operations.md). */
  ops: OpsConfig;
  /** The tracking collector (TRACKING_*, server/config/tracking.ts). */
  tracking: TrackingConfig;
  /** Server secret for API key encryption and code hashing; unset means "generate and keep in dataDir". */
  secretKey: string | null;
  /** nodemailer SMTP URL; null prints login codes to the server log instead. */
  smtpUrl: string | null;
  mailFrom: string;
  /** Where the site lives; OAuth callbacks on the API host send the browser to its root (SPEC.md §4). */
  siteUrl: string;
  google: OAuthProviderConfig & { issuer: string };
  github: OAuthProviderConfig & { apiUrl: string };
  /** Inbox for contact-form messages; null keeps them only in the database. */
  supportEmail: string | null;
  /** Stripe Checkout; null when STRIPE_SECRET_KEY or STRIPE_WEBHOOK_SECRET is unset. */
  stripe: { secretKey: string; webhookSecret: string; apiBase: string | null } | null;
  /** Credits granted once to every new account, in the ledger as 'signup-grant' (SIGNUP_CREDITS). */
  signupCredits: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset", so an exported-but-empty variable falls back to its default.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const databaseUrl = e.DATABASE_URL ?? `sqlite:${path.join(path.resolve(e.DATA_DIR), 'app.db')}`;
  const queue = queueConfig(e, databaseUrl);
  if (typeof queue === 'string') throw new ConfigError(`Invalid configuration:\n  ${queue}`);
  const database = databaseConfig(e, databaseUrl, queue.role);
  if (typeof database === 'string') throw new ConfigError(`Invalid configuration:\n  ${database}`);
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl,
    database,
    siteDir: path.resolve(e.SITE_DIR),
    siteOrigins: e.SITE_ORIGINS ?? [new URL(publicUrl).origin],
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    trustProxy: e.TRUST_PROXY,
    uploads: {
      perAccount: e.UPLOADS_PER_ACCOUNT,
      perClient: e.UPLOADS_PER_CLIENT,
      processBytes: e.UPLOAD_BYTES_IN_FLIGHT,
    },
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    tasks: taskConfig(e, path.resolve(e.DATA_DIR)),
    s3: s3Config(e, (message) => new ConfigError(`Invalid configuration:\n  ${message}`)),
    redis: redisConfig(e),
    queue,
    ops: opsConfig(e, (message) => new ConfigError(`Invalid configuration:\n  ${message}`)),
    tracking: trackingConfig(e),
    secretKey: e.SECRET_KEY ?? null,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    siteUrl: (e.SITE_URL ?? publicUrl).replace(/\/$/, ''),
    google: {
      clientId: e.GOOGLE_CLIENT_ID ?? null,
      clientSecret: e.GOOGLE_CLIENT_SECRET ?? null,
      issuer: e.GOOGLE_ISSUER,
      authorizationEndpoint: e.GOOGLE_AUTHORIZATION_ENDPOINT,
      tokenEndpoint: e.GOOGLE_TOKEN_ENDPOINT,
    },
    github: {
      clientId: e.GITHUB_CLIENT_ID ?? null,
      clientSecret: e.GITHUB_CLIENT_SECRET ?? null,
      authorizationEndpoint: e.GITHUB_AUTHORIZATION_ENDPOINT,
      tokenEndpoint: e.GITHUB_TOKEN_ENDPOINT,
      apiUrl: e.GITHUB_API_URL.replace(/\/$/, ''),
    },
    supportEmail: e.SUPPORT_EMAIL ?? null,
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiBase: e.STRIPE_API_BASE ?? null }
        : null,
    signupCredits: e.SIGNUP_CREDITS,
  };
}
