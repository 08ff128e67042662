// One run of a task screen and its phase: a leaf shared by the hook that drives runs (useTask.ts) and the card that
// shows one (RunCard.tsx).
import type { TaskView } from './api';

export type Phase = 'idle' | 'submitting' | 'running' | 'succeeded' | 'failed';

/** One submit and what became of it; the screen shows a card per run, newest first. */
export interface Run {
  /** Local id of the card (the task id is not known until the submit answers). */
  id: number;
  /** Counts this screen's runs from 1, as their cards are titled. */
  number: number;
  phase: Exclude<Phase, 'idle'>;
  task: TaskView | null;
  error: string | null;
  /** Set when the server refused for too few credits: the card offers the top-up. */
  needsTopUp: boolean;
  /**
   * When the submit was sent, and when the task was first seen running (this browser's clock, for elapsed and remaining
   * time).
   */
  submittedAt: number;
  runningSince: number | null;
}
