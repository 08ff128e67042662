// What one billing row says: the feature, what happened to the credits (held → charged N, refunded N) and where the
// task is.
import type { LedgerEntry } from '../../lib/api';
import { featureLabel, taskLink } from '../../lib/product-rules';

const REASONS: Record<string, string> = {
  invitation: 'Invitation',
  grant: 'Credit grant',
  'signup-grant': 'Sign-up credits',
  task: 'Generation',
  refund: 'Refund',
  purchase: 'Credit purchase',
  dispute: 'Payment disputed',
};

const credits = (n: number) => `${n} ${n === 1 ? 'credit' : 'credits'}`;

export interface LedgerText {
  /** The feature, or what the row is for when it is no task. */
  title: string;
  /** What happened to the credits, e.g. "Held 60 → charged 60" or "Refunded 60: the task failed". */
  detail: string;
  /** The task in its screen's history; null for rows about no task, deleted tasks and API-only features. */
  href: string | null;
}

/** Task rows (task-hold, task-settle, task-refund) are told from the task's outcome; other rows by their reason. */
export function ledgerText(entry: LedgerEntry): LedgerText {
  const task = entry.task;
  const isTaskRow = entry.reason.startsWith('task-');
  if (!isTaskRow)
    return {
      title: REASONS[entry.reason] ?? entry.reason,
      detail: entry.reference && entry.reason === 'invitation' ? `Code ${entry.reference}` : '',
      href: null,
    };
  if (!task)
    return {
      title: 'Generation',
      detail: `${entry.delta > 0 ? 'Returned' : 'Held'} ${credits(Math.abs(entry.delta))} · task deleted from the history`,
      href: null,
    };

  const title = featureLabel(task.feature);
  const href = entry.reference ? taskLink(task.feature, entry.reference) : null;
  const held = task.creditsHeld;
  const charged = task.creditsCharged;
  let detail: string;
  if (entry.reason === 'task-hold') {
    if (task.status === 'succeeded') detail = `Held ${held} → charged ${charged ?? held}`;
    else if (task.status === 'failed' || task.status === 'canceled')
      detail = `Held ${held} → refunded ${held} (${task.status})`;
    else detail = `Held ${held} · ${task.status === 'queued' ? 'waiting to run' : 'running'}`;
  } else if (entry.reason === 'task-settle') {
    detail =
      entry.delta > 0
        ? `${credits(entry.delta)} returned: the result cost ${charged} of ${held} held`
        : `${credits(-entry.delta)} more: the result cost ${charged}`;
  } else {
    detail = `Refunded ${held}: the task ${task.status === 'canceled' ? 'was canceled' : 'failed'}`;
  }
  return { title, detail, href };
}
