// A counting semaphore with abortable waits: caps how many tasks one engine runs at once.

export interface Semaphore {
  acquire(signal: AbortSignal): Promise<() => void>;
}

export function semaphore(size: number): Semaphore {
  let free = size;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  const once = () => {
    let done = false;
    return () => {
      if (!done) {
        done = true;
        release();
      }
    };
  };
  return {
    acquire(signal) {
      if (free > 0) {
        free--;
        return Promise.resolve(once());
      }
      return new Promise((resolve, reject) => {
        const grant = () => {
          signal.removeEventListener('abort', onAbort);
          resolve(once());
        };
        const onAbort = () => {
          const i = waiting.indexOf(grant);
          if (i >= 0) waiting.splice(i, 1);
          reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        };
        if (signal.aborted) return onAbort();
        waiting.push(grant);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}
