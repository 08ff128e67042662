// Steady submits through the cluster's api instances while its backing services fail in turn (S3, Redis, PostgreSQL):
// what was accepted, and how every submit was answered.
import { expect } from 'vitest';
import type { TestS3 } from '../../server/test-support/s3';
import { startTcpProxy, type TcpProxy } from '../../server/test-support/tcp-proxy';
import type { TaskRow } from '../../server/db';
import { call, waitFor } from './cluster.fixtures';
import type { Instance } from './server-processes';

export interface SteadyLoad {
  /** Ids of the tasks the cluster accepted (200). */
  accepted: string[];
  /** The phase each accepted task was submitted in, by id. */
  phaseOf: Map<string, string>;
  /** How submits were answered: HTTP status, or the network error, by count. */
  answers: Map<string, number>;
  /** Answers other than 200 seen during a named phase (e.g. `postgres-cut`), by status. */
  during(phase: string): Map<string, number>;
  /** Names the phase the answers from now on are counted under. */
  phase(name: string): void;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One loop per API key, each submitting a short speech task every `everyMs` through the api instances in turn. */
export function steadyLoad(o: { api: () => Instance[]; keys: string[]; everyMs: number }): SteadyLoad {
  const accepted: string[] = [];
  const phaseOf = new Map<string, string>();
  const answers = new Map<string, number>();
  const byPhase = new Map<string, Map<string, number>>();
  let current = 'steady';
  let stopped = false;
  let n = 0;
  const count = (answer: string) => {
    answers.set(answer, (answers.get(answer) ?? 0) + 1);
    if (answer === '200') return;
    const phase = byPhase.get(current) ?? new Map<string, number>();
    phase.set(answer, (phase.get(answer) ?? 0) + 1);
    byPhase.set(current, phase);
  };
  const loops = o.keys.map(async (key, i) => {
    // Spread over the interval, so the load is steady rather than in bursts.
    await sleep((i * o.everyMs) / o.keys.length);
    while (!stopped) {
      const instances = o.api();
      const base = instances[n++ % instances.length]!.url;
      try {
        const answer = await call(base, key, '/async/do_tts_common', { text: `Load ${n}.`, lan: 'en-US' });
        count(String(answer.status));
        if (answer.status === 200) {
          accepted.push(answer.data!.taskId as string);
          phaseOf.set(answer.data!.taskId as string, current);
        }
      } catch (error) {
        count(`network: ${error instanceof Error ? error.message : String(error)}`);
      }
      await sleep(o.everyMs);
    }
  });
  return {
    accepted,
    phaseOf,
    answers,
    during: (phase) => byPhase.get(phase) ?? new Map(),
    phase(name) {
      current = name;
    },
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

const readyz = async (i: Instance) => {
  const res = await fetch(`${i.url}/readyz`);
  return { status: res.status, body: (await res.json()) as { msg: string; data: { status: string } } };
};

/**
 * The outages, one after another under the load, each phase named on it: S3 stopped (a worker pauses and says why in
 * /readyz, then takes jobs again), Redis cut off, then PostgreSQL cut off (the API answers 503), and a calm phase
 * after.
 */
export async function outagesInTurn(o: {
  load: SteadyLoad;
  s3: TestS3;
  redis: TcpProxy;
  postgres: TcpProxy;
  worker: Instance;
  api: Instance;
  apiKey: string;
  outageMs: number;
  postgresCutMs: number;
}) {
  await sleep(5_000);
  o.load.phase('s3-down');
  await o.s3.stop();
  // Workers see the store away within their check interval, stop taking jobs and say why.
  await waitFor(async () => (await readyz(o.worker)).body.data.status === 'paused', 20_000, 'a worker pausing for S3');
  expect((await readyz(o.worker)).body.msg).toMatch(/Not taking jobs: .*s3/);
  await sleep(o.outageMs - 5_000);
  await o.s3.start();
  await waitFor(async () => (await readyz(o.worker)).status === 200, 20_000, 'the worker taking jobs again');

  o.load.phase('redis-down');
  o.redis.cut();
  await sleep(o.outageMs);
  o.redis.restore();

  o.load.phase('postgres-cut');
  o.postgres.cut();
  expect((await call(o.api.url, o.apiKey, '/remaining_credits')).status).toBe(503);
  await sleep(o.postgresCutMs);
  o.postgres.restore();
  o.load.phase('after');
  await sleep(10_000);
}

/** A TCP proxy to the service at `serviceUrl`, which the cluster's instances reach it through. */
export function proxyTo(serviceUrl: string, defaultPort: number): Promise<TcpProxy> {
  const url = new URL(serviceUrl);
  return startTcpProxy({ host: url.hostname, port: Number(url.port || defaultPort) });
}

/** The phases of the run, in order: before the outages, each outage, and after them. */
export const PHASES = ['steady', 's3-down', 'redis-down', 'postgres-cut', 'after'] as const;

/** Tasks that did not succeed, as `status: error`, by the phase they were submitted in (every phase listed). */
export function unsucceededByPhase(load: SteadyLoad, rows: TaskRow[]): Record<string, string[]> {
  const byPhase: Record<string, string[]> = Object.fromEntries(PHASES.map((p) => [p, []]));
  for (const t of rows)
    if (t.status !== 'succeeded') (byPhase[load.phaseOf.get(t.id) ?? 'steady'] ??= []).push(`${t.status}: ${t.error}`);
  return byPhase;
}

/**
 * One line of figures: submits and their answers, what became of the accepted tasks, and the refusals of each phase.
 */
export function outcome(load: SteadyLoad, rows: TaskRow[]): string {
  const count = (status: string) => rows.filter((t) => t.status === status).length;
  const submits = [...load.answers.values()].reduce((a, b) => a + b, 0);
  const phases = ['s3-down', 'redis-down', 'postgres-cut', 'after'].map(
    (p) => `${p} ${JSON.stringify(Object.fromEntries(load.during(p)))}`,
  );
  const again = rows.filter((t) => t.attempts > 1).length;
  return (
    `cluster outages: ${load.accepted.length} accepted of ${submits} submits ${JSON.stringify(Object.fromEntries(load.answers))}; ` +
    `${count('succeeded')} succeeded, ${count('failed')} failed; ${again} ran more than once (most attempts ${Math.max(0, ...rows.map((t) => t.attempts))}); ` +
    `refusals by phase: ${phases.join('; ')}`
  );
}
