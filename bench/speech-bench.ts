// Speech benchmark (run by bench/speech.mjs under tsx): offline eSpeak synthesis speed with the machine busy, on the
// engine's thread pool and, as the baseline in the same run, with a fresh thread and WASM compile per call; prints JSON
// rows.
import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { synthesize } from '../server/engines';
import { wavDuration } from '../server/media';

const PARAGRAPH =
  'Speech synthesis runs on this server with no key and no system package. It turns text into a playable wave file in a fraction of the time the speech lasts, so a playground user hears the result almost at once.';
const VOICE = 'en-us+m3';
/** Requests in flight: four per core keeps every core busy and a queue waiting, as a burst of playground runs would. */
const IN_FLIGHT = 4 * availableParallelism();
const REQUESTS = 6 * IN_FLIGHT;
/** The baseline is slow: fewer requests keep the run short, at the same concurrency. */
const BASELINE_REQUESTS = 2 * IN_FLIGHT;
const GOAL = 20;

/** The engine before its pool: a thread started for one synthesis (bench/speech-oneshot-worker.mjs). */
function oneShot(text: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./speech-oneshot-worker.mjs', import.meta.url), {
      workerData: { text, voice: VOICE, wpm: 175, pitch: 50 },
    });
    worker.once('message', (answer: { wav?: Uint8Array; error?: string }) =>
      answer.wav ? resolve(Buffer.from(answer.wav)) : reject(new Error(answer.error)),
    );
    worker.once('error', reject);
  });
}

/**
 * Audio seconds per wall second for REQUESTS syntheses with IN_FLIGHT at once, audio seconds per CPU second of the
 * whole process (every thread; unlike wall time, not slowed by other programs on the machine), the longest event-loop
 * stall.
 */
async function busy(speak: (text: string) => Promise<Buffer>, requests: number) {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpu = process.cpuUsage();
  let next = 0;
  let audioS = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next++ < requests) {
        // Awaited first: `audioS += await …` would read audioS before the wait and lose the other requests' sums.
        const wav = await speak(PARAGRAPH);
        audioS += wavDuration(wav) ?? 0;
      }
    }),
  );
  loop.disable();
  const used = process.cpuUsage(cpu);
  const cpuS = (used.user + used.system) / 1e6;
  return {
    speed: audioS / ((performance.now() - started) / 1000),
    perCpu: audioS / cpuS,
    stallMs: Math.round(loop.max / 1e6),
  };
}

// Warm-up: the pool's threads start and compile the module once, as they do once per server process.
await Promise.all(Array.from({ length: availableParallelism() }, () => synthesize(PARAGRAPH, VOICE)));
const pool = await busy((text) => synthesize(text, VOICE), REQUESTS);
const base = await busy(oneShot, BASELINE_REQUESTS);
// One request on an idle pool: the time a playground user waits for this paragraph.
const waits: number[] = [];
for (let i = 0; i < 5; i++) {
  await new Promise((resolve) => setTimeout(resolve, 300)); // the thread makes its next instance meanwhile
  const start = performance.now();
  await synthesize(PARAGRAPH, VOICE);
  waits.push(performance.now() - start);
}
waits.sort((a, b) => a - b);
const busyLabel = `${IN_FLIGHT} requests in flight on ${availableParallelism()} cores`;
const rows = [
  {
    figure: `offline speech with the machine busy (${busyLabel}), thread pool`,
    value: Number(pool.speed.toFixed(1)),
    unit: '× real time',
    goal: `≥ ${GOAL}`,
    met: pool.speed >= GOAL ? 'yes' : 'NO',
  },
  {
    figure: '  baseline: a fresh thread and WASM compile per call',
    value: Number(base.speed.toFixed(1)),
    unit: '× real time',
  },
  { figure: '  thread pool / baseline', value: Number((pool.speed / base.speed).toFixed(1)), unit: '×' },
  {
    figure: '  audio per CPU second (all threads), thread pool | baseline',
    value: `${pool.perCpu.toFixed(1)} | ${base.perCpu.toFixed(1)}`,
    unit: '× real time per core',
  },
  {
    figure: '  longest event-loop stall, thread pool | baseline',
    value: `${pool.stallMs} | ${base.stallMs}`,
    unit: 'ms',
  },
  { figure: 'one paragraph on an idle pool, median of 5', value: Math.round(waits[2]!), unit: 'ms' },
];
process.stdout.write(`${JSON.stringify(rows)}\n`);
// The pool's threads are unreferenced while idle, so the process ends here.
