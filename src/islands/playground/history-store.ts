// A counter the history panel watches: bumped when a task is created or finishes, so the list refreshes itself.
import { atom } from 'nanostores';

export const $historyTick = atom(0);

export function bumpHistory(): void {
  $historyTick.set($historyTick.get() + 1);
}
