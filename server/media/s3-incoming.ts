// Uploads clients POST straight to the bucket (presigned S3 POST): the form, then reading, adopting and removing what
// arrived.
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../http/errors';
import { DIRECT_UPLOADS, ERROR_CODES, OBJECT_STORAGE_MESSAGES } from '../../src/lib/product-rules';
import { collectedWhileRead } from './collected-stream';
import type { IncomingUploads } from './store';

export interface S3IncomingOptions {
  client: S3Client;
  bucket: string;
  /** The media prefix: empty or ending in "/". */
  prefix: string;
  /** A media key (id.ext) to its object key. */
  objectKey: (key: string) => string;
  /** The 503 a storage failure reaches the client as (its cause logged). */
  unavailable: (action: string, key: string, error: unknown) => AppError;
  isMissing: (error: unknown) => boolean;
}

/** Policy ids are our UUIDs; anything else never names an object. */
const INCOMING_ID = /^[0-9a-f-]{8,64}$/;

const changed = () => new AppError(409, ERROR_CODES.conflict, OBJECT_STORAGE_MESSAGES.uploadChanged);
const isPreconditionFailed = (error: unknown) =>
  (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 412;

export function s3Incoming(o: S3IncomingOptions): IncomingUploads {
  const { client, bucket } = o;
  const incomingKey = (id: string) => {
    if (!INCOMING_ID.test(id)) throw new Error(`invalid incoming upload id ${id}`);
    return `${o.prefix}${DIRECT_UPLOADS.incomingFolder}${id}`;
  };
  /** Storage failures become the 503; a file replaced since it was looked at, the 409 that asks to finish again. */
  const failed = (action: string, Key: string, error: unknown) =>
    isPreconditionFailed(error) ? changed() : o.unavailable(action, Key, error);

  return {
    async form(id, f) {
      // Signed locally: no request. The policy (the signed conditions) is what S3 enforces; fields are only its copy.
      const post = await createPresignedPost(client, {
        Bucket: bucket,
        Key: incomingKey(id),
        Conditions: [
          ['content-length-range', 1, f.maxBytes],
          ['starts-with', '$Content-Type', f.typePrefix],
        ],
        Expires: f.expiresS,
      });
      // Added after signing, so the condition stays "starts with": a client may send the file's own type in its place.
      return { url: post.url, fields: { ...post.fields, 'Content-Type': f.typePrefix || 'application/octet-stream' } };
    },
    async stat(id) {
      const Key = incomingKey(id);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key }));
        return { size: head.ContentLength ?? 0, etag: head.ETag ?? '' };
      } catch (error) {
        if (o.isMissing(error)) return null;
        throw o.unavailable('head', Key, error);
      }
    },
    async head(id, file, bytes) {
      const Key = incomingKey(id);
      try {
        const answer = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key, IfMatch: file.etag, Range: `bytes=0-${Math.max(0, bytes - 1)}` }),
        );
        return Buffer.from((await answer.Body?.transformToByteArray()) ?? []);
      } catch (error) {
        if (o.isMissing(error)) throw changed();
        throw failed('get', Key, error);
      }
    },
    async download(id, file, target) {
      const Key = incomingKey(id);
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key, IfMatch: file.etag }));
        // Streamed to disk: the file is never held in memory.
        await pipeline(collectedWhileRead(answer.Body as Readable), createWriteStream(target));
      } catch (error) {
        if (o.isMissing(error)) throw changed();
        throw failed('get', Key, error);
      }
      if ((await stat(target)).size !== file.size) throw changed();
    },
    async adopt(id, file, key, mime) {
      const source = incomingKey(id);
      const Key = o.objectKey(key);
      try {
        await client.send(
          new CopyObjectCommand({
            Bucket: bucket,
            Key,
            CopySource: `${bucket}/${source.split('/').map(encodeURIComponent).join('/')}`,
            CopySourceIfMatch: file.etag,
            // The type the bytes proved, not the one the client claimed.
            ContentType: mime,
            MetadataDirective: 'REPLACE',
          }),
        );
      } catch (error) {
        if (o.isMissing(error)) throw changed();
        throw failed('copy', Key, error);
      }
    },
    async discard(id) {
      // No upload was ever let in under a name that is not ours.
      if (!INCOMING_ID.test(id)) return;
      const Key = incomingKey(id);
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key }));
      } catch (error) {
        if (o.isMissing(error)) return;
        throw o.unavailable('delete', Key, error);
      }
    },
  };
}
