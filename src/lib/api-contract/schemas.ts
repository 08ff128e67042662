// Zod schemas of the public API's answers and webhook payloads, the source of the OpenAPI response schemas.
import { z } from 'zod';
import { TASK_STATUSES, WEBHOOKS } from '../product-rules';

/** DreamAPI's envelope {code, message, data}; `msg` repeats the message for clients of the SPEC.md §8 envelope. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({
    code: z.literal(0).describe('0 on success'),
    message: z.literal('success'),
    msg: z.literal('success'),
    data,
  });
}

/** Every refusal: a non-zero code from the catalogue, a message naming what to fix, data null. */
export const errorEnvelope = z.object({
  code: z.number().int().describe('A code of the error catalogue; never 0'),
  message: z.string().describe('What went wrong, naming the field and rule when a parameter is refused'),
  msg: z.string().describe('The same message'),
  data: z.null(),
  requestId: z
    .string()
    .optional()
    .describe("This request's id, also sent as the X-Request-Id header: quote it to support"),
});

export const submitData = z.object({
  taskId: z.string().describe('Poll it with getAsyncResult'),
  status: z.enum(TASK_STATUSES).describe('queued at submit (the task may already be running when replayed)'),
  credits: z.number().int().describe('The estimate held from your balance; settled when the task finishes'),
});

/** A result's download link: signed, so it needs no key, and good until the results expire. */
const resultUrl = (kind: string) =>
  z.url().describe(`A signed link to the ${kind}; it needs no key and works until the results expire`);
const image = z.object({ imageUrl: resultUrl('picture'), imageType: z.string().describe('File type, e.g. png') });
const video = z.object({ videoUrl: resultUrl('video'), videoType: z.string().describe('File type, e.g. mp4') });
const audio = z.object({
  audioUrl: resultUrl('audio'),
  audioType: z.string().describe('File type, e.g. wav'),
  duration: z.number().nullable().describe('Length in seconds, when known'),
});

/** The task view of getAsyncResult, cancelAsyncTask and webhooks (server/tasks/views.ts dreamView). */
export const taskResult = z.object({
  task: z
    .object({
      taskId: z.string().describe('The id the submit answered with'),
      status: z
        .union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)])
        .describe('1 submitted, 2 in progress, 3 success, 4 failure (failed or canceled)'),
      statusName: z.enum(TASK_STATUSES).describe('The status by name; tells a failed task from a canceled one'),
      reason: z.string().describe('Why the task failed or was canceled; empty otherwise'),
      taskType: z.string().describe('The tool that ran, e.g. do_tts_common'),
      engine: z.string().describe('The engine that ran it, e.g. espeak'),
      engineLabel: z.string().describe('What users are told about that engine, e.g. eSpeak NG (no AI model)'),
      executionTime: z.number().describe('Milliseconds from start to finish; 0 until finished'),
      progress: z.number().describe('0 to 100'),
      credits: z
        .number()
        .int()
        .describe('What the task costs: the held estimate until it finishes, then the settled charge'),
      creditsHeld: z.number().int().describe('The estimate held from your balance at submit'),
      creditsCharged: z
        .number()
        .int()
        .nullable()
        .describe('What was charged once the task finished (the rest of the hold is returned); null until then'),
      createdAt: z.number().int().describe('Unix milliseconds'),
      outputsExpired: z
        .boolean()
        .describe('True once retention removed the results: images, videos and audios are empty then'),
      outputsExpiredAt: z
        .number()
        .int()
        .nullable()
        .describe('When the results expired (Unix milliseconds); null while they are kept'),
    })
    .describe("The task's state"),
  images: z.array(image).describe('Pictures the task made; empty for other tools'),
  videos: z.array(video).describe('Videos the task made; empty for other tools'),
  audios: z.array(audio).describe('Audio the task made; empty for other tools'),
  cloneId: z.string().nullable().describe('The voice id a voice_clone task made; null otherwise'),
  text: z.string().nullable().describe('The transcript of a speech-to-text task; null otherwise'),
});

/** What dreamView (server/tasks/views.ts) answers: the `data` of getAsyncResult, cancelAsyncTask and webhooks. */
export type TaskResult = z.infer<typeof taskResult>;

export const remainingCreditsData = z.object({
  remainingCredits: z.number().int().describe("The balance of the key's account, in credits"),
});

export const webhookSecretData = z.object({
  secret: z.string().startsWith(WEBHOOKS.secretPrefix).describe(`Your signing secret (${WEBHOOKS.secretPrefix}…)`),
});

export const uploadPolicyData = z.object({
  reqId: z.string().describe('The id of this upload: finish it with policy_upload_finish'),
  host: z
    .url()
    .describe(
      'Where to POST the file (multipart/form-data): this server, or the storage bucket itself when the server uses one',
    ),
  expireAt: z
    .number()
    .int()
    .describe('Unix milliseconds after which the policy is refused (a bucket checks it when the upload starts)'),
  fields: z
    .record(z.string(), z.string())
    .describe(
      'Send every one as a form field, then the file last in the field "file". This server: reqId and signature. A bucket: its presigned POST fields; Content-Type may be replaced by the file\'s own type of the same family (audio/, image/, video/)',
    ),
  accept: z.array(z.enum(['audio', 'image', 'video'])).describe('Kinds of media this scene accepts'),
});

/** The form of the upload step; the server reads it field by field (server/routes/public-api.ts). */
export const uploadForm = z.object({
  reqId: z.string().describe('fields.reqId of the policy'),
  signature: z.string().describe('fields.signature of the policy'),
  file: z.string().meta({ format: 'binary' }).describe('The media file; checked by its bytes, not its name'),
});

export const uploadAckData = z.object({
  reqId: z.string().describe("The upload's id: finish it with policy_upload_finish"),
});

export const uploadFinishData = z.object({
  url: z.url().describe('Pass it to a tool'),
  fileId: z.string().describe("The stored file's id"),
  mime: z.string().describe('Its media type, read from its bytes'),
  size: z.number().int().describe('Bytes'),
  durationS: z.number().nullable().describe('Seconds of audio or video; null for images'),
});

/** The body of a task webhook (server/tasks/webhooks.ts webhookRecorder). */
export const webhookEvent = z.object({
  type: z.enum(['task.succeeded', 'task.failed', 'task.canceled']),
  timestamp: z.iso.datetime().describe('When the event was recorded'),
  data: taskResult,
});
