// How a task is shown: the playground's task object and DreamAPI's getAsyncResult shape, both with credits and signed
// URLs.
import type { Kysely } from 'kysely';
import { preparedQuery, type MediaRow, type Schema, type TaskRow } from '../db';
import type { MediaService } from '../media';
import {
  DREAM_STATUS,
  POSTERS,
  TASK_MESSAGES,
  toolOfFeature,
  type Feature,
  type TaskStatus,
  engineLabel,
} from '../../src/lib/product-rules';
import type { StoredOutput } from './task-types';
import type { TaskOutputView, TaskView } from '../../src/lib/api/types';
import type { TaskResult } from '../../src/lib/api-contract';

export type { TaskOutputView, TaskView };

/**
 * One task's media: every poll asks, so this query is compiled once (server/db/prepared.ts). Written `task_id in (?)`
 * rather than `task_id = ?`: with the ORDER BY, SQLite plans the `=` form again on every run (its time grows with the
 * SQL's length; the plan stays the same), while this form keeps its plan. Timed around each statement run in the
 * server under `npm run bench -- "API throughput"` load: 76 µs a call for the `=` form, 18 µs for this one.
 */
const mediaOfTask = preparedQuery((db, taskId: string) =>
  db.selectFrom('media').selectAll().where('task_id', 'in', [taskId]).orderBy('created_at'),
);

/** Media rows of several tasks in one query, grouped by task id. */
export async function mediaByTask(db: Kysely<Schema>, taskIds: string[]): Promise<Map<string, MediaRow[]>> {
  const map = new Map<string, MediaRow[]>();
  if (taskIds.length === 0) return map;
  const rows =
    taskIds.length === 1
      ? await mediaOfTask.all(db, taskIds[0]!)
      : await db.selectFrom('media').selectAll().where('task_id', 'in', taskIds).orderBy('created_at').execute();
  for (const row of rows) map.set(row.task_id!, [...(map.get(row.task_id!) ?? []), row]);
  return map;
}

function output(task: TaskRow): StoredOutput | null {
  return task.output ? (JSON.parse(task.output) as StoredOutput) : null;
}

/**
 * When the task's results expired (SPEC.md §9 retention): recorded by the cleanup pass, or, before it ran, the first
 * of its files past its expiry (their links answer 403 by then); null while they are kept.
 */
export function outputsExpiredAt(task: TaskRow, media: MediaRow[], now = Date.now()): number | null {
  if (task.outputs_expired_at !== null) return task.outputs_expired_at;
  const gone = media.filter((m) => m.expires_at < now).map((m) => m.expires_at);
  return gone.length > 0 ? Math.min(...gone) : null;
}

/** A task as its owner sees it; `share` binds the media links to the share link they are shown through. */
export function taskView(task: TaskRow, allMedia: MediaRow[], service: MediaService, share?: string): TaskView {
  const expiredAt = outputsExpiredAt(task, allMedia);
  // Expired results are not offered as links that would answer 403.
  const kept = expiredAt === null ? allMedia : [];
  // Poster frames are not results of their own: each goes with the video it was taken from.
  const media = kept.filter((m) => m.kind !== POSTERS.kind);
  const posters = new Map(kept.filter((m) => m.kind === POSTERS.kind && m.poster_of).map((m) => [m.poster_of!, m]));
  const poster = (m: MediaRow) =>
    m.kind === 'video'
      ? { posterUrl: posters.has(m.id) ? service.signedUrl(posters.get(m.id)!, undefined, share) : null }
      : {};
  return {
    taskId: task.id,
    feature: task.feature,
    status: task.status as TaskStatus,
    progress: task.progress,
    credits: task.credits_charged ?? task.credits_held,
    creditsHeld: task.credits_held,
    creditsCharged: task.credits_charged,
    priceItem: task.price_item,
    engine: task.engine,
    engineLabel: engineLabel(task.engine),
    error: task.error,
    input: JSON.parse(task.input),
    outputs: media.map((m) => ({
      kind: m.kind,
      url: service.signedUrl(m, undefined, share),
      mime: m.mime,
      durationS: m.duration_ms === null ? null : m.duration_ms / 1000,
      size: m.size,
      ...poster(m),
    })),
    outputsExpired: expiredAt !== null,
    outputsExpiredAt: expiredAt,
    cloneId: output(task)?.cloneId ?? null,
    text: output(task)?.text ?? null,
    createdAt: task.created_at,
    startedAt: task.started_at,
    finishedAt: task.finished_at,
    executionTime: task.finished_at && task.started_at ? task.finished_at - task.started_at : null,
  };
}

/** DreamAPI's getAsyncResult `data` (docs/public-api.md "Results"), plus our status name, progress and credits. */
export function dreamView(task: TaskRow, allMedia: MediaRow[], service: MediaService): TaskResult {
  const expiredAt = outputsExpiredAt(task, allMedia);
  const media = expiredAt === null ? allMedia : [];
  const typeOf = (m: MediaRow) => m.mime.split('/')[1] ?? m.mime;
  const files = (kind: string) => media.filter((m) => m.kind === kind);
  return {
    task: {
      taskId: task.id,
      status: DREAM_STATUS[task.status as keyof typeof DREAM_STATUS],
      statusName: task.status as TaskStatus,
      reason: task.error ?? (expiredAt === null ? '' : TASK_MESSAGES.outputsExpired),
      taskType: toolOfFeature(task.feature as Feature),
      engine: task.engine,
      engineLabel: engineLabel(task.engine),
      executionTime: task.finished_at && task.started_at ? task.finished_at - task.started_at : 0,
      progress: task.progress,
      credits: task.credits_charged ?? task.credits_held,
      creditsHeld: task.credits_held,
      creditsCharged: task.credits_charged,
      createdAt: task.created_at,
      outputsExpired: expiredAt !== null,
      outputsExpiredAt: expiredAt,
    },
    images: files('image').map((m) => ({ imageUrl: service.signedUrl(m), imageType: typeOf(m) })),
    videos: files('video').map((m) => ({ videoUrl: service.signedUrl(m), videoType: typeOf(m) })),
    audios: files('audio').map((m) => ({
      audioUrl: service.signedUrl(m),
      audioType: typeOf(m),
      duration: m.duration_ms === null ? null : m.duration_ms / 1000,
    })),
    cloneId: output(task)?.cloneId ?? null,
    text: output(task)?.text ?? null,
  };
}
