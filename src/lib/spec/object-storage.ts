// Media on S3-compatible object storage (S3_BUCKET, docs/configuration.md): upload part sizes, timeouts and messages.

const SECOND_MS = 1000;
const MB = 1024 * 1024;

export const OBJECT_STORAGE = {
  /** Region when S3_REGION is unset; S3-compatible servers mostly ignore it but the request signature names one. */
  defaultRegion: 'us-east-1',
  /** Bodies up to this size go in one PutObject; larger ones in parts (S3 wants parts of at least 5 MB but the last). */
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
} as const;

export const OBJECT_STORAGE_MESSAGES = {
  unavailable: 'Media storage is not reachable right now; try again in a minute',
} as const;
