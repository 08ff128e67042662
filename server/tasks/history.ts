// The playground history: list with feature filter and search over what tasks were made from, and re-run with the same
// inputs.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Schema, TaskRow } from '../db';
import { AppError } from '../http/errors';
import type { MediaService } from '../media';
import {
  ERROR_CODES,
  HISTORY_MESSAGES,
  inputSummary,
  SAMPLE_MODELS,
  VOICES,
  type Feature,
} from '../../src/lib/product-rules';
import type { TaskService } from './service';

export interface HistoryQuery {
  page: number;
  pageSize: number;
  /** Only these features; all when empty. */
  features: readonly Feature[];
  /** Words of the prompt, text, script or voice, case-insensitive; none when empty. */
  q?: string;
}

/**
 * Searched tasks are matched in this process after a coarse SQL filter; at most this many of the newest are looked at.
 */
const SEARCH_SCAN = 2000;

const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * What the stored input may hold for a query: the words themselves, or the id of a voice or model people know by that
 * name.
 */
function storedForms(q: string): string[] {
  const want = q.toLowerCase();
  const named = [...VOICES, ...SAMPLE_MODELS].filter((v) => v.name.toLowerCase().includes(want)).map((v) => v.id);
  return [q, ...named];
}

/** Whether the words a person sees for a task (its summary) contain the query. */
function matches(input: string, q: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch {
    return false;
  }
  const { text, detail } = inputSummary(parsed);
  return `${text ?? ''}\n${detail ?? ''}`.toLowerCase().includes(q.toLowerCase());
}

/** A page of the user's tasks, newest first. */
export async function listTasks(
  db: Kysely<Schema>,
  userId: string,
  query: HistoryQuery,
): Promise<{ rows: TaskRow[]; total: number }> {
  let base = db.selectFrom('tasks').where('user_id', '=', userId);
  if (query.features.length > 0) base = base.where('feature', 'in', query.features);
  const q = query.q?.trim();
  const offset = (query.page - 1) * query.pageSize;
  if (!q) {
    const rows = await base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.pageSize)
      .offset(offset)
      .execute();
    const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    return { rows, total: Number(total) };
  }
  // The stored input is JSON: LIKE on it also matches field names ("text", "voice"), so it only narrows the rows,
  // and the summary people see decides.
  const candidates = await base
    .select(['id', 'input'])
    .where((eb) =>
      eb.or(storedForms(q).map((form) => sql<boolean>`lower(input) like ${likePattern(form)} escape '\\'`)),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(SEARCH_SCAN)
    .execute();
  const ids = candidates.filter((c) => matches(c.input, q)).map((c) => c.id);
  const pageIds = ids.slice(offset, offset + query.pageSize);
  const rows =
    pageIds.length === 0 ? [] : await db.selectFrom('tasks').selectAll().where('id', 'in', pageIds).execute();
  rows.sort((a, b) => pageIds.indexOf(a.id) - pageIds.indexOf(b.id));
  return { rows, total: ids.length };
}

/** Each string of an input, with a function that replaces it in place. */
function* stringSlots(value: unknown): Generator<[string, (next: string) => void]> {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      if (typeof v === 'string') yield [v, (next) => (value[i] = next)];
      else yield* stringSlots(v);
    }
  } else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(record)) {
      if (typeof v === 'string') yield [v, (next) => (record[k] = next)];
      else yield* stringSlots(v);
    }
  }
}

export interface RerunDeps {
  db: Kysely<Schema>;
  media: MediaService;
  tasks: TaskService;
  /** Base of this server's media links (config.publicUrl). */
  publicUrl: string;
}

/**
 * Submits a new task with the same feature and inputs as one of the user's tasks. Links to this server's media in
 * the input are signed again (they expire after a day, the files later); a file already removed is a 400.
 */
export async function rerunTask(d: RerunDeps, userId: string, taskId: string): Promise<TaskRow> {
  const original = await d.tasks.get(userId, taskId);
  const input = JSON.parse(original.input) as Record<string, unknown>;
  const own = `${d.publicUrl}/media/`;
  for (const [value, replace] of stringSlots(input)) {
    if (!value.startsWith(own)) continue;
    const id = /^([A-Za-z0-9]{1,64})/.exec(value.slice(own.length))?.[1];
    const row = id ? await d.media.byId(id) : undefined;
    if (!row || row.user_id !== userId || Number(row.expires_at) < Date.now())
      throw new AppError(400, ERROR_CODES.invalidInput, HISTORY_MESSAGES.rerunInputsGone);
    replace(d.media.signedUrl(row));
  }
  // The length measured at submit is measured again for the new task.
  delete input.seconds;
  const { task } = await d.tasks.submit({ userId, feature: original.feature as Feature, input, source: 'playground' });
  return task;
}
