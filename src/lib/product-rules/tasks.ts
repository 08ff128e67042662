// Generation tasks: statuses, the service's messages and refusal codes, the public API's tool names and image shapes.

import type { Feature } from './pricing';

/** Task lifecycle: queued → running → succeeded | failed | canceled. */
export const TASK_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const FINISHED_STATUSES: readonly TaskStatus[] = ['succeeded', 'failed', 'canceled'];

/** DreamAPI's numeric task status: 1 submitted, 2 in progress, 3 success, 4 failure (docs/public-api.md "Results"). */
export const DREAM_STATUS: Record<TaskStatus, 1 | 2 | 3 | 4> = {
  queued: 1,
  running: 2,
  succeeded: 3,
  failed: 4,
  canceled: 4,
};

/** Messages of the task service, as shown to people. */
export const TASK_MESSAGES = {
  insufficientCredits: 'Not enough credits for this task',
  tooManyTasks: 'Too many tasks in progress; wait for one to finish and try again',
  taskNotFound: 'No task with this id',
  notCancelable: 'Only queued or running tasks can be canceled',
  idempotencyConflict: 'This Idempotency-Key was already used with a different request body',
  rateLimited: 'Too many requests; slow down and try again after the reset time',
  canceledByUser: 'Canceled by the user',
  // Failure reasons say nothing of credits: endedTaskMessage() adds the refund, which only a paid run gets.
  interrupted: 'The server restarted while this task was running and it could not be resumed',
  timedOut: 'The task took too long and was stopped',
  engineFailed: 'The engine failed to produce a result',
  attemptsExhausted: (attempts: number) => `The task could not be completed after ${attempts} attempts`,
  refunded: 'credits refunded',
  mediaExpired: 'This media link has expired or is not valid',
  uploadPolicyUnknown: 'Unknown or expired reqId; request a new policy with get_policy',
  uploadMissing: 'No file was uploaded for this reqId yet',
  uploadsBusyAccount: (n: number) =>
    `This account already has ${n} uploads in progress; wait for one to finish and try again`,
  uploadsBusyClient: (n: number) =>
    `Your network address already has ${n} uploads in progress; wait for one to finish and try again`,
  uploadsBusyServer: 'The server is receiving many uploads right now; try again in a few seconds',
  mediaUnknown: 'this media link is not valid or its file has expired; upload the file again',
  mediaNotYours:
    'this media link is a file of another account; upload the file with your own account and pass the link it answers',
  inputUnmeasured:
    'the length of this file could not be measured; send a complete audio or video file in an accepted format',
  inputUnreadable: 'the file could not be read to measure its length',
  inputChanged: (wasS: number, nowS: number) =>
    `the input file changed after the task was accepted: it was ${Math.ceil(wasS)} s and is now ${Math.ceil(nowS)} s; submit the task again`,
  outputsExpired:
    'The results of this task were removed after the retention period; the task record and its charge stay',
  outputsExpiredOn: (date: string) => `Outputs expired on ${date}`,
} as const;

/**
 * The reason a failed or canceled task keeps, as the task finishes: a run that held credits is told they came back; a
 * free run held none, so nothing is said to have been refunded.
 */
export function endedTaskMessage(reason: string, refunded: number): string {
  return refunded > 0 ? `${reason}; ${TASK_MESSAGES.refunded}` : reason;
}

/** Envelope codes of task refusals, beside ERROR_CODES (same 5-digit shape; HTTP status in the comment). */
export const TASK_ERROR_CODES = {
  /** HTTP 402: the balance does not cover the estimate; no task is created. */
  insufficientCredits: 40020,
  /** HTTP 429 with Retry-After: too many of the user's tasks are queued or running. */
  tooManyTasks: 40029,
  /** HTTP 409: the same Idempotency-Key with another body, or a task that can no longer be canceled. */
  conflict: 40009,
  /** HTTP 404 */
  taskNotFound: 40004,
} as const;

/**
 * DreamAPI tools of POST /api/async/<tool> (DreamAPI's own tool names, docs/public-api.md) and the feature each runs.
 */
export const PUBLIC_TOOLS = {
  do_tts_common: 'tts-common',
  do_tts_pro: 'tts-pro',
  voice_clone: 'voice-clone',
  do_tts_clone: 'tts-clone',
  dialogue: 'dialogue',
  talking_face: 'talking-face',
  lipsync: 'lipsync',
  talking_image: 'talking-image',
  'video_translate/2.0': 'video-translate-lip-sync',
  'wan/text_to_video/2.1': 'wan-text-to-video',
  'wan/image_to_video/2.1': 'wan-image-to-video',
  img2video: 'image-to-video',
  text2video: 'text-to-video',
  character2video: 'character-to-video',
  tryon_clothes: 'tryon-clothes',
  image_generation: 'image-generation',
  erase: 'erase',
  face_swap: 'face-swap',
  restore: 'restore',
  video_matting: 'video-matting',
  do_stt: 'stt-common',
  do_stt_pro: 'stt-pro',
} as const satisfies Record<string, Feature>;

/** Shapes image generation offers (width:height). */
export const IMAGE_ASPECT_RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4'] as const;
export type ImageAspectRatio = (typeof IMAGE_ASPECT_RATIOS)[number];
export type PublicTool = keyof typeof PUBLIC_TOOLS;

/** The DreamAPI taskType a feature answers with. */
export function toolOfFeature(feature: Feature): string {
  if (feature === 'video-translate-voice-only') return 'video_translate/2.0';
  if (feature === 'dialogue') return 'dialogue';
  if (feature === 'character-to-video') return 'character2video';
  const hit = Object.entries(PUBLIC_TOOLS).find(([, f]) => f === feature);
  return hit ? hit[0] : feature;
}

/**
 * The PostgreSQL job queue (QUEUE=pg-boss, docs/scaling.md "Job queue"): queue names, NOTIFY channels and the default
 * lease, check and retry timings. A killed worker's task is taken over within about leaseS + 2 × checkS + the retry
 * delay.
 */
export const TASK_QUEUE = {
  /** Jobs of tasks to run; one per task, with the task id as the job id. */
  jobs: 'dreamapi-tasks',
  /** Jobs whose attempts ran out: their tasks are failed and refunded. */
  exhausted: 'dreamapi-tasks-exhausted',
  /** NOTIFY channel carrying the id of a task to abort (cancel) on whichever worker runs it. */
  abortChannel: 'dreamapi_task_abort',
  /** NOTIFY channel carrying engine/taskId of a provider webhook, to wake the worker waiting for it. */
  hookChannel: 'dreamapi_engine_hook',
  /** pg-boss's schema in the database. */
  schema: 'pgboss',
  /** Seconds a running job lives without its worker's heartbeat (pg-boss heartbeatSeconds; at least 10). */
  leaseS: 20,
  /**
   * How often stranded jobs and due retries are looked for, in seconds (pg-boss supervise, monitor and relaxed poll
   * intervals).
   */
  checkS: 10,
  /** First retry delay in seconds; later ones back off exponentially, up to retryDelayMaxS. */
  retryDelayS: 2,
  retryDelayMaxS: 60,
  /** Seconds before reconnecting the LISTEN connection after it failed. */
  listenRetryS: 2,
  /**
   * The LISTEN connection sends `select 1` this often; no answer within the same time and it is replaced (a half-open
   * connection hears nothing).
   */
  listenKeepaliveS: 10,
  /**
   * How often a worker reads the status of the tasks it runs, so a cancel whose NOTIFY it missed still stops the run.
   */
  cancelCheckS: 3,
  /**
   * Cluster-wide engine slots are leased rows (server/tasks/engine-slots.ts): a slot held this long without renewal is
   * free again, which is how a killed worker's slots come back; the holder renews every engineSlotRenewS.
   */
  engineSlotLeaseS: 30,
  engineSlotRenewS: 10,
  /** How often a waiter looks for a free slot. */
  engineSlotPollMs: 200,
} as const;

/**
 * Connections each pool of a process may open (DATABASE_POOL_MAX overrides it; docs/scaling.md "Connections"): an api
 * instance serves many short requests at once; a worker's tasks spend their time in engines, not in the database.
 */
export const DATABASE_POOL = {
  maxByRole: { all: 10, api: 10, worker: 5 },
  /**
   * pg-boss's own pool in an api instance: jobs are sent inside the app's transactions, so it only starts and checks.
   */
  queueSenderMax: 2,
} as const;
