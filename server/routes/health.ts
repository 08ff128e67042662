// GET /healthz (the process is alive: for restarts) and GET /readyz (it can serve: for load balancers), for operators
// too.
import { Hono } from 'hono';
import { sql } from 'kysely';
import type { AppDeps } from './deps';
import { envelope } from '../http/errors';
import { ERROR_CODES, FEATURES, OPERATIONS_MESSAGES } from '../../src/lib/product-rules';
import { readinessChecks, runChecks } from '../lifecycle/readiness';
import { bodyCap } from './body-cap';

const startedAt = Date.now();

/**
 * Liveness: 200 whenever the process answers, so an orchestrator restarts only a process that is stuck, never one
 * whose database is down (restarting would not help; /readyz takes it out of rotation instead). What it reports
 * (database, features and their engines) is for people.
 */
export function healthRoutes(deps: AppDeps) {
  const { database } = deps;
  const app = new Hono();
  app.use('*', bodyCap(deps.config.bodyLimitBytes));
  app.get('/', async (c) => {
    const [databaseCheck] = Object.values(
      await runChecks({ database: async () => void (await sql`select 1`.execute(database.db)) }),
    );
    const databaseUp = databaseCheck!.up;
    const data = {
      status: deps.lifecycle?.draining ? 'draining' : databaseUp ? 'ok' : 'degraded',
      database: { engine: database.engine, up: databaseUp },
      uptimeS: Math.round((Date.now() - startedAt) / 1000),
      // Which features are served and by what (docs/engines.md): engines in fallback order, each available or why not.
      features: deps.tasks.engines.describe(FEATURES),
    };
    return c.json(envelope(0, 'ok', data));
  });
  return app;
}

/** Readiness: 200 when every dependency answers; 503 naming those that do not, and 503 at once while draining. */
export function readinessRoutes(deps: AppDeps) {
  const app = new Hono();
  app.use('*', bodyCap(deps.config.bodyLimitBytes));
  const checks = readinessChecks({
    config: deps.config,
    database: deps.database,
    queue: deps.tasks.queue,
    rateLimits: deps.rateLimits,
  });
  app.get('/', async (c) => {
    if (deps.lifecycle?.draining)
      return c.json(envelope(ERROR_CODES.unavailable, OPERATIONS_MESSAGES.draining, { status: 'draining' }), 503);
    const results = await runChecks(checks);
    // A worker that stopped taking jobs for an outage says so, and why, until it takes them again
    // (server/lifecycle/pause.ts).
    const paused = deps.lifecycle?.paused;
    if (paused)
      return c.json(
        envelope(
          ERROR_CODES.unavailable,
          OPERATIONS_MESSAGES.workPaused(Object.entries(paused).map(([name, why]) => `${name}: ${why}`)),
          {
            status: 'paused',
            paused,
            checks: results,
          },
        ),
        503,
      );
    const down = Object.keys(results).filter((name) => !results[name]!.up);
    if (down.length > 0)
      return c.json(
        envelope(ERROR_CODES.unavailable, OPERATIONS_MESSAGES.notReady(down), { status: 'not ready', checks: results }),
        503,
      );
    return c.json(envelope(0, 'ready', { status: 'ready', checks: results }));
  });
  return app;
}
