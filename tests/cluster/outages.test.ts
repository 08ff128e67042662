// Outages under steady load on a cluster of real server processes: S3 stopped, Redis cut off, PostgreSQL cut off, each
// 60 s, fail no task, lose none and leave no credit drift (docs/scaling.md "Outages").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditState } from '../../server/test-support/tasks';
import { expectSettledOnce, missingServices, waitFor } from './cluster.fixtures';
import type { Instance } from './server-processes';
import { startCluster, type Cluster } from './cluster-setup';
import { outagesInTurn, outcome, steadyLoad, unsucceededByPhase, PHASES } from './steady-load';

const skipReason = await missingServices();
if (skipReason) console.warn(`cluster outages test skipped: ${skipReason}`);

/** Accounts of the steady load, each submitting every LOAD_EVERY_MS (under the rate limit of 15 a minute). */
const [LOAD_USERS, LOAD_EVERY_MS] = [8, 4500];
const [OUTAGE_MS, POSTGRES_CUT_MS] = [60_000, 60_000];

let cluster: Cluster | undefined;
let api: Instance[] = [];
let workers: Instance[] = [];

describe.skipIf(skipReason !== null)('outages of a cluster of api and worker processes', { timeout: 400_000 }, () => {
  beforeAll(async () => {
    cluster = await startCluster({ name: 'outages', balances: Array.from({ length: LOAD_USERS }, () => 100_000) });
    [api, workers] = await Promise.all([
      Promise.all([cluster.start('api'), cluster.start('api')]),
      Promise.all([cluster.start('worker'), cluster.start('worker')]),
    ]);
  }, 300_000);

  afterAll(() => cluster?.close());

  it(
    `under steady load, S3 down ${OUTAGE_MS / 1000} s, Redis down ${OUTAGE_MS / 1000} s and PostgreSQL cut ` +
      `off ${POSTGRES_CUT_MS / 1000} s fail no task, lose none and leave no drift`,
    async () => {
      const c = cluster!;
      const db = c.database.db;
      const load = steadyLoad({ api: () => api, keys: c.users.map((u) => u.apiKey), everyMs: LOAD_EVERY_MS });
      try {
        await outagesInTurn({
          load,
          s3: c.s3,
          redis: c.redisProxy,
          postgres: c.pgProxy,
          worker: workers[0]!,
          api: api[0]!,
          apiKey: c.users[0]!.apiKey,
          outageMs: OUTAGE_MS,
          postgresCutMs: POSTGRES_CUT_MS,
        });
      } finally {
        await load.stop();
      }
      await waitFor(
        async () => (await c.tasksNotTerminal()) === 0,
        120_000,
        'every task reaching a final status',
        c.statusCounts,
      );

      const rows = await db.selectFrom('tasks').selectAll().where('id', 'in', load.accepted).execute();
      console.info(outcome(load, rows));
      expect(rows).toHaveLength(load.accepted.length);
      // Tasks were accepted while S3 and while Redis were away (none can be while PostgreSQL is), and no task of any
      // phase failed.
      for (const phase of ['s3-down', 'redis-down']) expect([...load.phaseOf.values()], phase).toContain(phase);
      expect(unsucceededByPhase(load, rows)).toEqual(Object.fromEntries(PHASES.map((p) => [p, []])));
      // Refused submits were told why: the per-user cap (429) or the database being away (503); never a 500 or a
      // dropped connection.
      for (const answer of load.answers.keys()) expect(['200', '429', '503']).toContain(answer);
      await expectSettledOnce(db, rows);
      for (const user of c.users) {
        const state = await creditState({ database: c.database }, user.id);
        expect(state.balance).toBe(state.ledgerSum);
      }
    },
    360_000,
  );
});
