// A pool of eSpeak-NG threads sized to the cores: threads live on between syntheses (no start-up or WASM compile per
// call), texts wait their turn when every thread is busy, and an aborted synthesis ends only its own thread.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

export interface SpeechJob {
  text: string;
  voice: string;
  wpm: number;
  pitch: number;
}

interface Waiting {
  id: number;
  job: SpeechJob;
  resolve(wav: Buffer): void;
  reject(error: unknown): void;
  signal?: AbortSignal | undefined;
  onAbort?: () => void;
}

interface Thread {
  worker: Worker;
  current: Waiting | null;
}

const WORKER_URL = new URL('./espeak-worker.mjs', import.meta.url);

const abortReason = (signal?: AbortSignal) => (signal?.reason instanceof Error ? signal.reason : new Error('aborted'));

/** `size` threads at most (the machine's cores by default), started on first need. */
export function speechPool(size = availableParallelism()) {
  const threads = new Set<Thread>();
  const queue: Waiting[] = [];
  let nextId = 0;

  function finish(waiting: Waiting) {
    if (waiting.onAbort) waiting.signal?.removeEventListener('abort', waiting.onAbort);
  }

  function start(): Thread {
    // The worker is plain JavaScript: it needs none of the parent's loaders (execArgv), which would slow its start.
    const thread: Thread = { worker: new Worker(WORKER_URL, { execArgv: [] }), current: null };
    thread.worker.unref();
    thread.worker.on('message', (answer: { id: number; wav?: Uint8Array; error?: string }) => {
      const waiting = thread.current;
      if (!waiting || waiting.id !== answer.id) return;
      thread.current = null;
      thread.worker.unref();
      finish(waiting);
      if (answer.wav) waiting.resolve(Buffer.from(answer.wav.buffer, answer.wav.byteOffset, answer.wav.byteLength));
      else waiting.reject(new Error(answer.error ?? 'espeak-ng produced no audio'));
      next();
    });
    const lost = (error: Error) => {
      if (!threads.delete(thread)) return;
      const waiting = thread.current;
      thread.current = null;
      if (waiting) {
        finish(waiting);
        waiting.reject(error);
      }
      next();
    };
    thread.worker.once('error', lost);
    thread.worker.once('exit', (code) => lost(new Error(`espeak-ng worker stopped (exit code ${code}) before answering`)));
    threads.add(thread);
    return thread;
  }

  /** Hands waiting texts to idle threads, starting threads up to `size`. */
  function next() {
    while (queue.length > 0) {
      let thread = [...threads].find((t) => t.current === null);
      if (!thread && threads.size < size) thread = start();
      if (!thread) return;
      const waiting = queue.shift()!;
      thread.current = waiting;
      // A thread at work keeps the process alive until it answers; an idle one does not.
      thread.worker.ref();
      thread.worker.postMessage({ id: waiting.id, ...waiting.job });
    }
  }

  return {
    /** WAV bytes of the text; rejects with the signal's reason when aborted, ending the thread if it was at work. */
    synthesize(job: SpeechJob, signal?: AbortSignal): Promise<Buffer> {
      return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(abortReason(signal));
        const waiting: Waiting = { id: ++nextId, job, resolve, reject, signal };
        waiting.onAbort = () => {
          const queued = queue.indexOf(waiting);
          if (queued >= 0) queue.splice(queued, 1);
          const thread = [...threads].find((t) => t.current === waiting);
          if (thread) {
            // A WASM run cannot be interrupted: its thread is ended, and a new one starts when next needed.
            threads.delete(thread);
            thread.current = null;
            void thread.worker.terminate();
            next();
          }
          reject(abortReason(signal));
        };
        signal?.addEventListener('abort', waiting.onAbort, { once: true });
        queue.push(waiting);
        next();
      });
    },

    /** Threads running now (for tests and the bench). */
    threadCount: () => threads.size,

    /** Ends every thread; texts still waiting are refused. */
    async close(): Promise<void> {
      for (const waiting of queue.splice(0)) {
        finish(waiting);
        waiting.reject(new Error('speech pool closed'));
      }
      const all = [...threads];
      threads.clear();
      for (const thread of all) {
        if (!thread.current) continue;
        finish(thread.current);
        thread.current.reject(new Error('speech pool closed'));
        thread.current = null;
      }
      await Promise.all(all.map((t) => t.worker.terminate()));
    },
  };
}

export type SpeechPool = ReturnType<typeof speechPool>;
