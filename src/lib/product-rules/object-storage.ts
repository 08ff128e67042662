// Media on S3-compatible object storage (S3_BUCKET, docs/configuration.md): upload part sizes, timeouts and messages.

const SECOND_MS = 1000;
const MB = 1024 * 1024;

export const OBJECT_STORAGE = {
  /** Region when S3_REGION is unset; S3-compatible servers mostly ignore it but the request signature names one. */
  defaultRegion: 'us-east-1',
  /**
   * Bodies up to this size go in one PutObject; larger ones in parts (S3 wants parts of at least 5 MB but the last).
   */
  singlePutMaxBytes: 8 * MB,
  /** Size of each part of a multipart upload (the last may be smaller). */
  partBytes: 8 * MB,
  /** Connecting to the storage server may take this long before the request counts as failed. */
  connectTimeoutMs: 5 * SECOND_MS,
  /** One request (a part of up to partBytes, or a whole download) may take this long. */
  requestTimeoutMs: 120 * SECOND_MS,
  /** Attempts the SDK makes per request before the error reaches us (it backs off between them). */
  maxAttempts: 3,
  /** Shortest presigned download link worth handing out; a signed URL with less life left is served directly. */
  minPresignS: 1,
  /** Parts of one multipart upload sent at once, each streamed from its range of the file. */
  partConcurrency: 4,
} as const;

/** Uploads sent from the client straight to the bucket (get_policy with S3_BUCKET set; docs/scaling.md). */
export const DIRECT_UPLOADS = {
  /** A presigned POST must be sent within this time; S3 checks it when the upload starts. */
  formTtlS: 15 * 60,
  /**
   * The first bytes read to recognise what arrived before the whole file is fetched (formats announce themselves
   * early).
   */
  sniffBytes: 64 * 1024,
  /** Where uploads land under the media prefix until they are checked (then copied to their own key). */
  incomingFolder: 'incoming/',
  /** Policies are removed this long after their form expired, with any file sent but never finished. */
  sweepAfterMs: 60 * 60 * SECOND_MS,
  /** Policies removed per database read of that sweep. */
  sweepPage: 200,
} as const;

export const OBJECT_STORAGE_MESSAGES = {
  unavailable: 'Media storage is not reachable right now; try again in a minute',
  /** Appended to a refusal of a file sent straight to the bucket. */
  uploadRemoved:
    'the uploaded file was removed; send a suitable one with the policy (or a new one once it expired) and finish again',
  uploadChanged: 'The uploaded file was replaced while it was being checked; call policy_upload_finish again',
} as const;

/** What the browser shows (kept apart from the server's messages, so only this reaches its bundle). */
export const DIRECT_UPLOAD_MESSAGES = {
  /**
   * The bucket refused a file sent straight to it (too large, type or time outside its policy); S3's own reason
   * follows.
   */
  storageRefused: (reason: string) => `The storage refused the file: ${reason}`,
} as const;
