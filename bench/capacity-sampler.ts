// The capacity bench's once-a-second samples: PostgreSQL connections on the bench's database and the RSS of each server
// process.
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { processMemory } from '../server/test-support/big-media';

const MB = 1024 * 1024;

export interface Sampled {
  /** Connections to the database (pg_stat_activity), one number a second. */
  connections: number[];
  /** RSS in MB of each named process, one number a second. */
  rss: Record<string, number[]>;
  /** The machine's 1-minute load average, one number a second (other jobs on the machine show here). */
  load: number[];
  /** CPU seconds used by the database's PostgreSQL backends since sampling began (as last sampled: a lower bound). */
  postgresCpuS: () => number;
}

/** Clock ticks a second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const TICKS_PER_S = 100;

/** CPU seconds a process has used so far (user + system), from /proc/<pid>/stat. */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'latin1');
  // Fields after the command name (which may hold spaces), counted from field 3: utime is field 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
}

/**
 * Samples every second until stop(). Connections (PostgreSQL only) are counted over a connection to the admin
 * database, so the sampler's own connection is not among those counted.
 */
export async function startSampler(
  postgres: { adminUrl: string; database: string } | null,
  processes: Record<string, number>,
) {
  const client = postgres ? new pg.Client({ connectionString: postgres.adminUrl }) : null;
  await client?.connect();
  // Per backend pid: its CPU seconds when first seen (0 for one that connected after sampling began) and when last
  // seen.
  const backends = new Map<number, { first: number; last: number }>();
  let firstSample = true;
  const sampled: Sampled = {
    connections: [],
    rss: Object.fromEntries(Object.keys(processes).map((name) => [name, []])),
    load: [],
    postgresCpuS: () => [...backends.values()].reduce((sum, b) => sum + b.last - b.first, 0),
  };
  const sample = async () => {
    if (client && postgres) {
      const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [
        postgres.database,
      ]);
      sampled.connections.push(rows.length);
      for (const { pid } of rows) {
        const used = await cpuSeconds(pid).catch(() => null);
        if (used === null) continue;
        const known = backends.get(pid);
        if (known) known.last = used;
        else backends.set(pid, { first: firstSample ? used : 0, last: used });
      }
      firstSample = false;
    }
    sampled.load.push(Number((await readFile('/proc/loadavg', 'latin1')).split(' ')[0]));
    for (const [name, pid] of Object.entries(processes)) {
      const memory = await processMemory(pid).catch(() => null);
      if (memory) sampled.rss[name]!.push(Math.round(memory.rss / MB));
    }
  };
  await sample();
  let running = Promise.resolve();
  const timer = setInterval(() => (running = running.then(sample).catch(() => undefined)), 1000);
  return {
    sampled,
    async stop(): Promise<Sampled> {
      clearInterval(timer);
      await running;
      await client?.end();
      return sampled;
    },
  };
}

/** start / max / end of a series, as "a / b / c". */
export function startMaxEnd(series: number[]): string {
  if (series.length === 0) return 'not sampled';
  return `${series[0]} / ${Math.max(...series)} / ${series.at(-1)}`;
}
