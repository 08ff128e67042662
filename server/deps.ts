// What every route area receives: configuration, database and logger, built once by main.ts or a test.
import type { Config } from './config';
import type { AppDatabase } from './db';
import type { Logger } from './log';

export interface AppDeps {
  config: Config;
  database: AppDatabase;
  log: Logger;
}
