// What the account routes share: database, configuration, the lazily resolved server keys and the mailer.
import type { Kysely } from 'kysely';
import type { Context } from 'hono';
import { createMailer, lazyServerKeys, type Mailer, type ServerKeys } from '../accounts';
import type { Config } from '../config';
import type { Schema } from '../db';
import type { AppDeps } from './deps';
import type { Logger } from '../log';

export interface AccountsContext {
  db: Kysely<Schema>;
  config: Config;
  log: Logger;
  keys: () => ServerKeys;
  mailer: Mailer;
}

export function accountsContext(deps: AppDeps): AccountsContext {
  return {
    db: deps.database.db,
    config: deps.config,
    log: deps.log,
    keys: lazyServerKeys(deps.config),
    mailer: deps.mailer ?? createMailer(deps.config, deps.log),
  };
}

/** Country from a trusted CDN/proxy header (SPEC.md §3 countryCode); empty when unknown. */
export function countryCode(c: Context, config: Config): string {
  if (!config.trustProxy) return '';
  const value = c.req.header('cf-ipcountry') ?? c.req.header('x-country-code') ?? '';
  return /^[A-Za-z]{2}$/.test(value) ? value.toUpperCase() : '';
}
