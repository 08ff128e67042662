// The leader's batch timer: a send every buffer interval while entries wait, stopping once the queue stays empty (§4).
import { TRACKING } from '../product-rules';

/** What the timer asks of the engine. */
export interface TimerHost {
  /** True while this tab may send: it leads and its app key holds. */
  canSend(): boolean;
  bufferMs(): number;
  queued(): Promise<number>;
  flush(): Promise<void>;
}

export class BatchTimer {
  private running = false;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly host: TimerHost) {}

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running || !this.host.canSend()) return;
    this.running = true;
    this.schedule(this.host.bufferMs());
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** After a retry's send: the next tick is set again unless one already waits (or the timer stopped meanwhile). */
  resume(): void {
    if (this.running && !this.timer) this.schedule(this.host.bufferMs());
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
  }

  private async tick(): Promise<void> {
    this.timer = null;
    if (!this.running || !this.host.canSend()) {
      this.running = false;
      return;
    }
    if ((await this.host.queued()) === 0) {
      // SPEC.md §4: when the queue is empty the timer stops after a 2 s check.
      this.timer = setTimeout(() => void this.stopCheck(), TRACKING.stopCheckDelayMs);
      return;
    }
    await this.host.flush();
    if (this.running) this.schedule(this.host.bufferMs());
  }

  private async stopCheck(): Promise<void> {
    this.timer = null;
    if (!this.running) return;
    if ((await this.host.queued()) === 0) {
      this.running = false;
      return;
    }
    await this.tick();
  }
}
