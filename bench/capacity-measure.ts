// One measured setup of the capacity bench: the load offered to its API processes, its tasks read back, its processes
// sampled; answers one column of figures.
import { openDatabase } from '../server/db';
import type { MeasuredInstance } from './capacity-cluster';
import { FIGURES_PATH, type FalFigures } from './capacity-fal';
import { offerLoad, taskFigures } from './capacity-load';
import { cpuSeconds, startMaxEnd, startSampler } from './capacity-sampler';

/** How long the tasks accepted may take to end after the load stops before the bench gives up on them. */
const DRAIN_LIMIT_MS = 120_000;
/** Seconds the processes are watched with no load first: what polling and heartbeats cost with nothing to do. */
const IDLE_S = 15;

export interface Setup {
  /** Processes that take submits (the load goes to each in turn). */
  apis: MeasuredInstance[];
  /** Processes that run tasks (may be the same as apis). */
  workers: MeasuredInstance[];
  keys: string[];
  databaseUrl: string;
  /** PostgreSQL: where pg_stat_activity is read and which database to count; null on SQLite. */
  postgres: { adminUrl: string; database: string } | null;
  rate: number;
  seconds: number;
  /** The fal stand-in, whose own figures give the engine-alone times. */
  falUrl: string;
}

const engineTimes = async (falUrl: string) =>
  ((await (await fetch(`${falUrl}${FIGURES_PATH}`)).json()) as FalFigures).engineMs;

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!) : NaN;
};
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

/** Figure name → value, in the order the table prints them. */
export type Column = Record<string, string>;

export async function measure(s: Setup): Promise<Column> {
  const processes = [...new Set([...s.apis, ...s.workers])];
  const sampler = await startSampler(s.postgres, Object.fromEntries(processes.map((i) => [i.name, i.pid])));
  const cpuIdle = await Promise.all(processes.map((i) => cpuSeconds(i.pid)));
  await new Promise((resolve) => setTimeout(resolve, IDLE_S * 1000));
  const cpuBefore = await Promise.all(processes.map((i) => cpuSeconds(i.pid)));
  const postgresIdleS = sampler.sampled.postgresCpuS();
  const engineFrom = (await engineTimes(s.falUrl)).length;
  const load = await offerLoad({ rate: s.rate, seconds: s.seconds, apis: s.apis.map((a) => a.url), keys: s.keys });
  const reader = await openDatabase(s.databaseUrl, { maxConnections: 1 });
  const tasks = await taskFigures(reader, load, DRAIN_LIMIT_MS).finally(() => reader.close());
  const cpu = (await Promise.all(processes.map((i) => cpuSeconds(i.pid)))).map((after, n) => after - cpuBefore[n]!);
  const sampled = await sampler.stop();
  const idle = (group: MeasuredInstance[]) =>
    processes.reduce((sum, p, n) => sum + (group.includes(p) ? cpuBefore[n]! - cpuIdle[n]! : 0), 0) / IDLE_S;
  const engine = (await engineTimes(s.falUrl)).slice(engineFrom);
  const perTask = (seconds: number) => ((seconds * 1000) / Math.max(1, tasks.succeeded)).toFixed(1);
  const cpuOf = (group: MeasuredInstance[]) =>
    perTask(processes.reduce((sum, p, n) => sum + (group.includes(p) ? cpu[n]! : 0), 0));
  const postgresS = sampled.postgresCpuS() - postgresIdleS;
  const split = s.apis.some((a) => !s.workers.includes(a));
  const connections = sampled.connections;
  return {
    'rate offered (submits/s)': load.offeredPerS.toFixed(1),
    'submits accepted (200) per s': (load.accepted.length / s.seconds).toFixed(1),
    'tasks started per s (during the load)': tasks.startedPerS.toFixed(1),
    'tasks finished per s (during the load)': tasks.finishedPerS.toFixed(1),
    'submit → start p50 / p99 ms (created_at → started_at)': `${pct(tasks.toStart, 50)} / ${pct(tasks.toStart, 99)}`,
    'submit → finish p50 / p99 ms': `${pct(tasks.toFinish, 50)} / ${pct(tasks.toFinish, 99)}`,
    'engine alone p50 / p99 ms (fal stand-in: submit received → image fetched)': `${pct(engine, 50)} / ${pct(engine, 99)}`,
    'HTTP submit answer p50 / p99 ms (most in flight)': `${pct(load.answerMs, 50)} / ${pct(load.answerMs, 99)} (${load.maxInFlight})`,
    'tasks succeeded / failed / not ended': `${tasks.succeeded} / ${tasks.failed} / ${tasks.open}${tasks.firstError ? ` (${tasks.firstError})` : ''}`,
    'drain after the last submit (s)': (tasks.drainMs / 1000).toFixed(1),
    '5xx / other refusals / network errors': `${load.serverErrors} / ${load.refused} / ${load.networkErrors}${load.firstRefusal ? ` (${load.firstRefusal})` : ''}`,
    'PostgreSQL connections max / mean (pg_stat_activity, each second)': connections.length
      ? `${Math.max(...connections)} / ${Math.round(mean(connections))}`
      : 'none (SQLite)',
    'RSS MB per process: start / max / end': Object.entries(sampled.rss)
      .map(([name, series]) => `${name} ${startMaxEnd(series)}`)
      .join('; '),
    'CPU ms per task (servers, and PostgreSQL backends as sampled)': `${split ? `api ${cpuOf(s.apis)}, worker ${cpuOf(s.workers)}` : cpuOf(processes)}${
      s.postgres ? `, PostgreSQL ${perTask(postgresS)}` : ''
    }`,
    [`CPU while idle, ${IDLE_S} s before the load (cores)`]: `${split ? `api ${idle(s.apis).toFixed(2)}, worker ${idle(s.workers).toFixed(2)}` : idle(processes).toFixed(2)}${
      s.postgres ? `, PostgreSQL ${(postgresIdleS / IDLE_S).toFixed(2)}` : ''
    }`,
    'machine load average (1 min) mean / max': `${mean(sampled.load).toFixed(1)} / ${Math.max(...sampled.load).toFixed(1)}`,
    'server stderr lines (warnings, errors)': processes.map((p) => `${p.name} ${p.stderrLines()}`).join('; '),
  };
}
