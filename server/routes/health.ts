// GET /healthz: whether the process and its database answer, for load balancers and operators.
import { Hono } from 'hono';
import { sql } from 'kysely';
import type { AppDeps } from './deps';
import { envelope } from '../http/errors';
import { FEATURES } from '../../src/lib/spec';
import { bodyCap } from './body-cap';

const startedAt = Date.now();

export function healthRoutes(deps: AppDeps) {
  const { database } = deps;
  const app = new Hono();
  app.use('*', bodyCap(deps.config.bodyLimitBytes));
  app.get('/', async (c) => {
    let databaseUp = true;
    try {
      await sql`select 1`.execute(database.db);
    } catch {
      databaseUp = false;
    }
    const data = {
      status: databaseUp ? 'ok' : 'degraded',
      database: { engine: database.engine, up: databaseUp },
      uptimeS: Math.round((Date.now() - startedAt) / 1000),
      // Which features are served and by what (docs/engines.md): engines in fallback order, each available or why not.
      features: deps.tasks.engines.describe(FEATURES),
    };
    return c.json(envelope(databaseUp ? 0 : 50003, databaseUp ? 'ok' : 'database unavailable', data), databaseUp ? 200 : 503);
  });
  return app;
}
