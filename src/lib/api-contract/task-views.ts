// Zod schemas of the playground's task answers and the media, model and share answers around them. The server sends
// them; src/lib/api/types.ts names their types.
import { z } from 'zod';
import { TASK_STATUSES, type MediaKind } from '../product-rules';

const mediaKind = z.enum(['audio', 'image', 'video'] as const satisfies readonly MediaKind[]);

/** One result file of a task, behind a signed, expiring URL. */
export const taskOutputView = z.object({
  kind: z.string(),
  url: z.string(),
  mime: z.string(),
  durationS: z.number().nullable(),
  size: z.number(),
  /** A video's poster frame (a JPEG taken from it when stored); absent for other kinds and when none could be made. */
  posterUrl: z.string().nullable().optional(),
});

/** The playground's task object (submit, poll and get_list answers). */
export const taskView = z.object({
  taskId: z.string(),
  feature: z.string(),
  status: z.enum(TASK_STATUSES),
  progress: z.number(),
  /** Credits this task costs: the settled charge once finished, the held estimate before. */
  credits: z.number(),
  creditsHeld: z.number(),
  creditsCharged: z.number().nullable(),
  priceItem: z.string(),
  engine: z.string(),
  /** What users are shown about the engine, e.g. "preview engine (no AI model)" (src/lib/product-rules/engines.ts). */
  engineLabel: z.string(),
  error: z.string().nullable(),
  input: z.unknown(),
  /** Empty once the results expired (see outputsExpired). */
  outputs: z.array(taskOutputView),
  /** True once retention removed the results; status, credits and input stay as they were. */
  outputsExpired: z.boolean(),
  /** When the results expired (epoch ms); null while they are kept. */
  outputsExpiredAt: z.number().nullable(),
  cloneId: z.string().nullable(),
  /** Transcript of a speech-to-text task. */
  text: z.string().nullable(),
  createdAt: z.number(),
  startedAt: z.number().nullable(),
  finishedAt: z.number().nullable(),
  /** Milliseconds from start to finish; null until finished. */
  executionTime: z.number().nullable(),
});
/** A page of the history (get_list). */
export const taskPage = z.object({ list: z.array(taskView), total: z.number() });

/** An uploaded or produced file as the upload calls answer it: its signed URL works until expiresAt. */
export const mediaInfo = z.object({
  id: z.string(),
  kind: mediaKind,
  mime: z.string(),
  size: z.number(),
  durationS: z.number().nullable(),
  url: z.string(),
  expiresAt: z.number(),
});

/** GET /api-playground/vih_model/v1/model_list: one sample avatar model (SPEC.md §3). */
export const sampleModel = z.object({ id: z.string(), name: z.string(), desc: z.string(), src: z.string() });
export const sampleModelList = z.object({ list: z.array(sampleModel) });

/** A live public link to one result. */
export const shareLinkView = z.object({
  id: z.string(),
  taskId: z.string(),
  /** The public page's address, token included. */
  url: z.string(),
  createdAt: z.number(),
  expiresAt: z.number(),
});
export const shareLinkList = z.object({ list: z.array(shareLinkView) });

/** What the public page of a shared result shows: no account data beyond the result and what it was made from. */
export const sharedResult = z.object({
  feature: z.string(),
  engineLabel: z.string(),
  /** The prompt, text or script the result was made from; null when it had none. */
  summary: z.string().nullable(),
  createdAt: z.number(),
  /** When the link stops working. */
  expiresAt: z.number(),
  outputs: z.array(taskOutputView),
});
