// The capacity bench's load: submits on a fixed schedule (open loop) over HTTP to the API instances in turn, and the
// tasks' figures read back.
import type { AppDatabase } from '../server/db';

const TERMINAL = ['succeeded', 'failed', 'canceled'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Load {
  /** Epoch ms of the first and last submit sent. */
  startedAt: number;
  endedAt: number;
  offeredPerS: number;
  /** Task ids answered 200. */
  accepted: string[];
  /** Client-side time from sending a submit to its answer. */
  answerMs: number[];
  serverErrors: number;
  refused: number;
  networkErrors: number;
  firstRefusal: string;
  maxInFlight: number;
}

/**
 * `rate` submits a second for `seconds`, each sent at its scheduled time whether or not earlier ones were answered
 * (so a slow server meets the same arrivals, as it would from many clients): API instances in turn, accounts in turn,
 * a prompt of a few words to image_generation.
 */
export async function offerLoad(o: { rate: number; seconds: number; apis: string[]; keys: string[] }): Promise<Load> {
  const total = Math.round(o.rate * o.seconds);
  const load: Load = {
    startedAt: Date.now(),
    endedAt: 0,
    offeredPerS: 0,
    accepted: [],
    answerMs: [],
    serverErrors: 0,
    refused: 0,
    networkErrors: 0,
    firstRefusal: '',
    maxInFlight: 0,
  };
  let inFlight = 0;
  const pending: Array<Promise<void>> = [];
  const submit = async (n: number) => {
    const sent = performance.now();
    inFlight++;
    load.maxInFlight = Math.max(load.maxInFlight, inFlight);
    try {
      const res = await fetch(`${o.apis[n % o.apis.length]}/api/async/image_generation`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${o.keys[n % o.keys.length]}` },
        body: JSON.stringify({ prompt: `a lighthouse at dusk, take ${n}`, count: 1 }),
      });
      const text = await res.text();
      load.answerMs.push(performance.now() - sent);
      if (res.status === 200) load.accepted.push((JSON.parse(text) as { data: { taskId: string } }).data.taskId);
      else {
        if (res.status >= 500) load.serverErrors++;
        else load.refused++;
        load.firstRefusal ||= `${res.status}: ${text.slice(0, 160)}`;
      }
    } catch (error) {
      load.networkErrors++;
      load.firstRefusal ||= `network: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      inFlight--;
    }
  };
  const start = performance.now();
  for (let n = 0; n < total; n++) {
    const due = start + (n * 1000) / o.rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(submit(n));
  }
  load.endedAt = Date.now();
  load.offeredPerS = total / ((performance.now() - start) / 1000 + 1 / o.rate);
  await Promise.all(pending);
  return load;
}

export interface TaskFigures {
  startedPerS: number;
  finishedPerS: number;
  toStart: number[];
  toFinish: number[];
  succeeded: number;
  failed: number;
  open: number;
  firstError: string;
  drainMs: number;
}

/**
 * Waits (up to `limitMs`) for the accepted tasks to end, then reads their timestamps: the rates held are the starts
 * and finishes that fell inside the load window, divided by its length.
 */
export async function taskFigures(database: AppDatabase, load: Load, limitMs: number): Promise<TaskFigures> {
  const ids = load.accepted;
  const read = async () => {
    const rows: Array<{
      status: string;
      error: string | null;
      created_at: number;
      started_at: number | null;
      finished_at: number | null;
    }> = [];
    for (let i = 0; i < ids.length; i += 5000) {
      const part = ids.slice(i, i + 5000);
      if (part.length === 0) continue;
      rows.push(
        ...(await database.db
          .selectFrom('tasks')
          .select(['status', 'error', 'created_at', 'started_at', 'finished_at'])
          .where('id', 'in', part)
          .execute()),
      );
    }
    return rows;
  };
  const deadline = Date.now() + limitMs;
  let rows = await read();
  while (rows.some((r) => !TERMINAL.includes(r.status)) && Date.now() < deadline) {
    await sleep(1000);
    rows = await read();
  }
  const windowS = (load.endedAt - load.startedAt) / 1000;
  const inWindow = (t: number | null) => t !== null && t >= load.startedAt && t <= load.endedAt;
  const succeeded = rows.filter((r) => r.status === 'succeeded');
  const finishedAt = rows.map((r) => r.finished_at ?? 0);
  return {
    startedPerS: rows.filter((r) => inWindow(r.started_at)).length / windowS,
    finishedPerS: rows.filter((r) => inWindow(r.finished_at)).length / windowS,
    toStart: rows.filter((r) => r.started_at !== null).map((r) => r.started_at! - r.created_at),
    toFinish: succeeded.map((r) => r.finished_at! - r.created_at),
    succeeded: succeeded.length,
    failed: rows.filter((r) => r.status === 'failed' || r.status === 'canceled').length,
    open: rows.filter((r) => !TERMINAL.includes(r.status)).length,
    firstError: rows.find((r) => r.error)?.error?.slice(0, 160) ?? '',
    drainMs: Math.max(0, Math.max(...finishedAt, 0) - load.endedAt),
  };
}
