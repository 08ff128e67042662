// The server's configuration: read once from the environment, validated, with defaults that work locally.
import path from 'node:path';
import { z } from 'zod';
import type { LogLevel } from './log';

const port = z.coerce.number().int().min(0).max(65535);
const bool = z.enum(['true', 'false', '1', '0', '']).transform((v) => v === 'true' || v === '1');
const csv = z.string().transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean));

const envSchema = z.object({
  PORT: port.default(8787),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().min(1).optional(),
  SITE_DIR: z.string().min(1).default('./dist'),
  SITE_ORIGINS: csv.optional(),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  TRUST_PROXY: bool.default(false),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
});

export interface Config {
  port: number;
  host: string;
  /** Where people reach the site and API; used in printed URLs and links in mail. */
  publicUrl: string;
  dataDir: string;
  databaseUrl: string;
  siteDir: string;
  /** Origins allowed to call the API from a browser (CORS). */
  siteOrigins: string[];
  bodyLimitBytes: number;
  trustProxy: boolean;
  logLevel: LogLevel;
  shutdownTimeoutMs: number;
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
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL ?? `sqlite:${path.join(path.resolve(e.DATA_DIR), 'app.db')}`,
    siteDir: path.resolve(e.SITE_DIR),
    siteOrigins: e.SITE_ORIGINS ?? [new URL(publicUrl).origin],
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
  };
}
