// The open status streams of this process: a cap per account, and closing them all when the process drains.
import { LIVE_STATUS } from '../../src/lib/product-rules';

export type StreamEntry = { leave(): void } | 'too-many' | 'draining';

export function statusStreams(maxPerAccount: number = LIVE_STATUS.maxStreamsPerAccount) {
  const open = new Map<string, Set<() => void>>();
  let draining = false;
  return {
    /** Counts a stream of `userId` that `close` ends; refused over the cap or while draining. */
    enter(userId: string, close: () => void): StreamEntry {
      if (draining) return 'draining';
      let set = open.get(userId);
      if (set && set.size >= maxPerAccount) return 'too-many';
      if (!set) open.set(userId, (set = new Set()));
      set.add(close);
      const mine = set;
      return {
        leave() {
          mine.delete(close);
          if (mine.size === 0 && open.get(userId) === mine) open.delete(userId);
        },
      };
    },
    /** How many streams are open (all accounts). */
    count: () => [...open.values()].reduce((n, set) => n + set.size, 0),
    /**
     * The drain: every stream ends now (clients reconnect to another instance, Last-Event-ID resumes them) and no new
     * one opens.
     */
    close(): void {
      draining = true;
      for (const set of open.values()) for (const close of [...set]) close();
    },
  };
}

export type StatusStreams = ReturnType<typeof statusStreams>;
