// The media store on an S3-compatible bucket (S3_BUCKET): every API instance reads and writes the same objects.
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createReadStream } from 'node:fs';
import { AppError } from '../http/errors';
import type { Logger } from '../log';
import { ERROR_CODES, OBJECT_STORAGE, OBJECT_STORAGE_MESSAGES } from '../../src/lib/product-rules';
import { collectedWhileRead } from './collected-stream';
import { s3Incoming } from './s3-incoming';
import { SAFE_KEY, type IncomingUploads, type MediaStore } from './store';

/** Where the bucket is and how to reach it (S3_* settings, read in server/config/s3.ts, whose S3Config is this). */
export interface S3StoreSettings {
  bucket: string;
  /** null: the provider's AWS endpoint for the region. */
  endpoint: string | null;
  region: string;
  /** null: the SDK's default credential chain (environment, profile, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
  /** Put in front of every key; empty or ending in "/". */
  prefix: string;
}

export interface S3MediaStoreOptions {
  s3: S3StoreSettings;
  /** Where storage failures are reported with their cause; clients only hear that storage is unreachable. */
  log?: Logger;
  /** Bodies above this go in parts (tests lower it); OBJECT_STORAGE.singlePutMaxBytes by default. */
  singlePutMaxBytes?: number;
  partBytes?: number;
  /** Parts sent at once; OBJECT_STORAGE.partConcurrency by default. */
  partConcurrency?: number;
}

/** A 4xx other than a timeout or throttling: the request itself is wrong, so sending it again cannot help. */
function isClientError(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

export function s3MediaStore(o: S3MediaStoreOptions): MediaStore & { client: S3Client; incoming: IncomingUploads } {
  const { bucket, prefix } = o.s3;
  const singlePutMax = o.singlePutMaxBytes ?? OBJECT_STORAGE.singlePutMaxBytes;
  const partBytes = o.partBytes ?? OBJECT_STORAGE.partBytes;
  const partConcurrency = Math.max(1, o.partConcurrency ?? OBJECT_STORAGE.partConcurrency);
  const client = new S3Client({
    region: o.s3.region,
    endpoint: o.s3.endpoint ?? undefined,
    forcePathStyle: o.s3.forcePathStyle,
    // Unset credentials leave the SDK's default chain (environment, shared profile, instance or task role).
    credentials: o.s3.credentials ?? undefined,
    maxAttempts: OBJECT_STORAGE.maxAttempts,
    requestHandler: {
      connectionTimeout: OBJECT_STORAGE.connectTimeoutMs,
      requestTimeout: OBJECT_STORAGE.requestTimeoutMs,
      throwOnRequestTimeout: true,
    },
    // Many S3-compatible servers reject the newer default integrity checksums; AWS itself does not need them.
    ...(o.s3.endpoint
      ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }
      : {}),
  });

  const objectKey = (key: string) => {
    if (!SAFE_KEY.test(key)) throw new Error(`invalid media key ${key}`);
    return `${prefix}${key}`;
  };

  /** Any storage failure reaches the client as 503 with a message it can act on; the cause goes to the log. */
  function unavailable(action: string, key: string, error: unknown): AppError {
    o.log?.error('media storage request failed', {
      action,
      bucket,
      key,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
    const failure = new AppError(503, ERROR_CODES.unavailable, OBJECT_STORAGE_MESSAGES.unavailable);
    failure.cause = error;
    return failure;
  }

  /** A part's body: bytes in memory, or a function that opens its range of a file (a stream can be sent only once). */
  type Part = { Body: Uint8Array | (() => NodeJS.ReadableStream); ContentLength: number };

  /**
   * Sends a body read from a file. The SDK does not retry a request whose body is a stream (it cannot read it twice),
   * so each attempt here opens the file range afresh, with the same attempt count the SDK uses for the rest.
   */
  async function sendStreamed<T>(
    send: (body: NodeJS.ReadableStream) => Promise<T>,
    open: () => NodeJS.ReadableStream,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await send(open());
      } catch (error) {
        if (attempt >= OBJECT_STORAGE.maxAttempts || isClientError(error)) throw error;
      }
    }
  }

  async function putInParts(Key: string, size: number, partAt: (offset: number, length: number) => Part) {
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key }));
    if (!UploadId) throw new Error('the storage server answered no UploadId');
    try {
      // A few parts at a time, each read from memory or from its range of the file as it is sent: one upload holds at
      // most partConcurrency parts' stream buffers, never a part whole (a file body is streamed, not signed).
      const count = Math.ceil(size / partBytes);
      const parts: CompletedPart[] = new Array<CompletedPart>(count);
      let next = 0;
      const sendParts = async () => {
        for (let index = next++; index < count; index = next++) {
          const offset = index * partBytes;
          const PartNumber = index + 1;
          const { Body, ContentLength } = partAt(offset, Math.min(partBytes, size - offset));
          const command = (body: Uint8Array | NodeJS.ReadableStream) =>
            client.send(
              new UploadPartCommand({
                Bucket: bucket,
                Key,
                UploadId,
                PartNumber,
                Body: body as Uint8Array,
                ContentLength,
              }),
            );
          const { ETag } = typeof Body === 'function' ? await sendStreamed(command, Body) : await command(Body);
          parts[index] = { ETag, PartNumber };
        }
      };
      // Every sender stops at the first failure of any (the others finish their part), then the upload is aborted.
      const senders = Array.from({ length: Math.min(partConcurrency, count) }, () =>
        sendParts().catch((error: unknown) => {
          next = count;
          throw error;
        }),
      );
      const settled = await Promise.allSettled(senders);
      const failure = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failure) throw failure.reason;
      await client.send(
        new CompleteMultipartUploadCommand({ Bucket: bucket, Key, UploadId, MultipartUpload: { Parts: parts } }),
      );
    } catch (error) {
      // An abandoned upload keeps its parts (and their cost) until aborted.
      await client
        .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key, UploadId }))
        .catch((abortError: unknown) => {
          o.log?.warn('aborting a multipart upload failed', {
            bucket,
            key: Key,
            error: abortError instanceof Error ? abortError.message : String(abortError),
          });
        });
      throw error;
    }
  }

  return {
    client,
    incoming: s3Incoming({ client, bucket, prefix, objectKey, unavailable, isMissing }),
    async put(key, data) {
      const Key = objectKey(key);
      try {
        if (data.byteLength <= singlePutMax)
          await client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: data, ContentLength: data.byteLength }));
        else
          await putInParts(Key, data.byteLength, (offset, length) => ({
            Body: data.subarray(offset, offset + length),
            ContentLength: length,
          }));
      } catch (error) {
        throw unavailable('put', Key, error);
      }
    },
    async putFile(key, file, size) {
      const Key = objectKey(key);
      const range = (offset: number, length: number) => () =>
        collectedWhileRead(createReadStream(file, { start: offset, end: offset + length - 1 }));
      try {
        if (size <= singlePutMax) {
          await sendStreamed(
            (Body) =>
              client.send(
                new PutObjectCommand({ Bucket: bucket, Key, Body: Body as unknown as Uint8Array, ContentLength: size }),
              ),
            range(0, size),
          );
        } else
          await putInParts(Key, size, (offset, length) => ({ Body: range(offset, length), ContentLength: length }));
      } catch (error) {
        throw unavailable('put', Key, error);
      }
    },
    async get(key) {
      const Key = objectKey(key);
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key }));
        if (!answer.Body) return null;
        const bytes = await answer.Body.transformToByteArray();
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      } catch (error) {
        if (isMissing(error)) return null;
        throw unavailable('get', Key, error);
      }
    },
    async delete(key) {
      const Key = objectKey(key);
      try {
        // S3 answers 204 for a key that is not there; some compatible servers answer 404, which is fine too.
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key }));
      } catch (error) {
        if (isMissing(error)) return;
        throw unavailable('delete', Key, error);
      }
    },
    async downloadUrl(key, mime, filename, expiresS) {
      // Signing happens here, without a request: a download link works while the storage server is reachable by the
      // client.
      const safeName = filename.replace(/[^A-Za-z0-9._-]/g, '_');
      const command = new GetObjectCommand({
        Bucket: bucket,
        Key: objectKey(key),
        ResponseContentType: mime,
        ResponseContentDisposition: `inline; filename="${safeName}"`,
      });
      return getSignedUrl(client, command, { expiresIn: Math.max(1, Math.floor(expiresS)) });
    },
  };
}
