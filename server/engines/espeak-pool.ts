// A pool of eSpeak-NG threads on piscina, sized to the cores: threads live on between syntheses (no start-up or WASM
// compile per call) until idle for SPEECH_POOL.idleTimeoutMs, texts wait their turn when every thread is busy (up to a
// cap), and an aborted synthesis ends only its own thread.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { SPEECH_POOL } from '../../src/lib/product-rules';

export interface SpeechJob {
  text: string;
  voice: string;
  wpm: number;
  pitch: number;
}

export interface SpeechPoolOptions {
  /** How long a thread may stay idle before it ends. */
  idleTimeoutMs?: number;
  /** Texts that may wait for a thread; one more is refused at once. */
  maxQueue?: number;
}

const WORKER_URL = new URL('./espeak-worker.mjs', import.meta.url);

const abortReason = (signal: AbortSignal) => (signal.reason instanceof Error ? signal.reason : new Error('aborted'));

/** `size` threads at most (the machine's cores by default), started on first need. */
export function speechPool(size = availableParallelism(), o: SpeechPoolOptions = {}) {
  const pool = new Piscina<SpeechJob, Uint8Array>({
    filename: WORKER_URL.href,
    // Threads start on first need, and all of them may end when idle.
    minThreads: 0,
    maxThreads: size,
    idleTimeout: o.idleTimeoutMs ?? SPEECH_POOL.idleTimeoutMs,
    maxQueue: o.maxQueue ?? size * SPEECH_POOL.queuedPerThread,
    // Piscina's default ('sync') parks an idle thread in Atomics.wait, which blocks its event loop: the worker could
    // not make the next WASM instance while it waits for a text, and every caller would wait for that instead.
    atomics: 'disabled',
    // The worker is plain JavaScript: it needs none of the parent's loaders (execArgv), which would slow its start.
    execArgv: [],
  });
  let closed = false;

  return {
    /** WAV bytes of the text; rejects with the signal's reason when aborted, ending the thread if it was at work. */
    async synthesize(job: SpeechJob, signal?: AbortSignal): Promise<Buffer> {
      if (closed) throw new Error('speech pool closed');
      if (signal?.aborted) throw abortReason(signal);
      try {
        // A WASM run cannot be interrupted: on abort piscina ends its thread, and a new one starts when next needed.
        const wav = await pool.run(job, { signal: signal ?? null });
        return Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength);
      } catch (error) {
        if (signal?.aborted) throw abortReason(signal);
        if (closed) throw new Error('speech pool closed', { cause: error });
        throw error;
      }
    },

    /** Threads running now (for tests and the bench). */
    threadCount: () => pool.threads.length,

    /** Ends every thread; the text in progress and those still waiting are refused. */
    async close(): Promise<void> {
      closed = true;
      await pool.destroy();
    },
  };
}

export type SpeechPool = ReturnType<typeof speechPool>;
