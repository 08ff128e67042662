// The media area: stores uploads and results, checks uploads by content, signs expiring URLs, removes expired files.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { MediaRow } from '../db';
import { MEDIA_EXTENSIONS, OBJECT_STORAGE, POSTERS, type MediaKind } from '../../src/lib/product-rules';
import type { Logger } from '../log';
import type { ProbedMedia } from './probe';
import { checkUploadFile } from './upload-check';
import { mediaRemoval } from './removal';
import { signedLinks, type SignedLinkOptions, type SignedLinkParams } from './signed-links';
import { withWorkDir } from '../tools';
import { renderPoster } from './poster';
import { s3MediaStore, type S3StoreSettings } from './s3-store';
import { localMediaStore, type MediaStore } from './store';
import type { MediaInfo } from '../../src/lib/api/types';

export { localMediaStore } from './store';
export { signedLinkParams, type SignedLinkParams } from './signed-links';
export { s3MediaStore, type S3StoreSettings } from './s3-store';
export type { IncomingUploads, MediaStore } from './store';
export { checkUploadFile } from './upload-check';
export { createDirectUploads, type DirectUploads } from './direct-upload';
export { sniffMedia, wavDuration } from './sniff';
export { probeMedia, probeMediaFile, type ProbedMedia } from './probe';
export { createUploadGate, type UploadGate, type UploadPass } from './upload-gate';
export { recordUploadPolicy, userUploadPolicy } from './upload-policies';

export type { MediaInfo };

/** How GET /media answers: a redirect to the store, a stream of the file (a range of it when asked), or its bytes. */
export type MediaDownload =
  | { redirect: string }
  | { row: MediaRow; stream: (range?: { start: number; end: number }) => Promise<Readable | null> }
  | { row: MediaRow; data: Buffer };

/** The configured store: the S3-compatible bucket when S3_BUCKET is set, else the local directory (MEDIA_DIR). */
export function configuredMediaStore(
  config: { s3: S3StoreSettings | null; tasks: { mediaDir: string } },
  log?: Logger,
): MediaStore {
  return config.s3 ? s3MediaStore({ s3: config.s3, log }) : localMediaStore(config.tasks.mediaDir);
}

export interface MediaServiceOptions extends SignedLinkOptions {
  store: MediaStore;
  retentionMs: number;
}

export function createMediaService(o: MediaServiceOptions) {
  const { signedUrl, verify } = signedLinks(o);

  function info(row: MediaRow): MediaInfo {
    return {
      id: row.id,
      kind: row.kind as MediaKind,
      mime: row.mime,
      size: row.size,
      durationS: row.duration_ms === null ? null : row.duration_ms / 1000,
      url: signedUrl(row),
      expiresAt: row.expires_at,
    };
  }

  /** Stores bytes in memory (results), or a file on disk (uploads) streamed into the store. */
  async function save(
    userId: string,
    taskId: string | null,
    kind: MediaKind | typeof POSTERS.kind,
    mime: string,
    data: Uint8Array | { file: string; size: number } | { place: (key: string) => Promise<void>; size: number },
    durationS: number | null,
    posterOf: string | null = null,
  ) {
    const id = randomUUID().replaceAll('-', '');
    const now = Date.now();
    const storageKey = `${id}.${MEDIA_EXTENSIONS[mime] ?? 'bin'}`;
    if (data instanceof Uint8Array) await o.store.put(storageKey, data);
    else if ('place' in data) await data.place(storageKey);
    else await o.store.putFile(storageKey, data.file, data.size);
    const row: MediaRow = {
      id,
      user_id: userId,
      task_id: taskId,
      kind,
      mime,
      size: data instanceof Uint8Array ? data.byteLength : data.size,
      duration_ms: durationS === null ? null : Math.round(durationS * 1000),
      storage_key: storageKey,
      created_at: now,
      expires_at: now + o.retentionMs,
      poster_of: posterOf,
    };
    await o.db.insertInto('media').values(row).execute();
    return info(row);
  }

  return {
    signedUrl,
    info,

    /** Checks an upload on disk by its bytes (upload-check.ts); the measured media when it passes. */
    checkUploadFile,

    /** Checks and stores an upload received into `file` (streamed into the store); answers with its signed URL. */
    async saveUploadFile(
      userId: string,
      file: string,
      size: number,
      allowed: readonly MediaKind[],
      field = 'file',
    ): Promise<MediaInfo> {
      const probed = await this.checkUploadFile(file, size, allowed, field);
      return save(userId, null, probed.kind, probed.mime, { file, size }, probed.durationS);
    },

    /**
     * Records checked media that `place` puts in the store under the key it is given (an upload sent straight to the
     * bucket).
     */
    async saveStored(
      userId: string,
      probed: ProbedMedia,
      size: number,
      place: (key: string) => Promise<void>,
    ): Promise<MediaInfo> {
      return save(userId, null, probed.kind, probed.mime, { place, size }, probed.durationS);
    },

    /** Uploads clients send to the store itself, when it takes them (S3): see direct-upload.ts. */
    incoming: o.store.incoming ?? null,

    /** saveUploadFile() for bytes already in memory (the admin tools and tests). */
    async saveUpload(
      userId: string,
      data: Uint8Array,
      allowed: readonly MediaKind[],
      field = 'file',
    ): Promise<MediaInfo> {
      return withWorkDir('upload-', async (dir) => {
        const file = path.join(dir, 'upload');
        await writeFile(file, data);
        return this.saveUploadFile(userId, file, data.byteLength, allowed, field);
      });
    },

    /** Stores a task's result; a video gets its poster frame stored beside it (kind 'poster', removed with it). */
    async saveOutput(
      userId: string,
      taskId: string,
      kind: MediaKind,
      mime: string,
      data: Uint8Array,
      durationS: number | null,
    ) {
      const saved = await save(userId, taskId, kind, mime, data, durationS);
      const poster = kind === 'video' ? await renderPoster(data, mime, durationS) : null;
      if (poster) await save(userId, taskId, POSTERS.kind, POSTERS.mime, poster, null, saved.id);
      return saved;
    },

    async byId(id: string) {
      return o.db.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Verifies a signed URL's expiry and signature and returns the bytes; null when anything is off. */
    async open(id: string, link: SignedLinkParams, now = Date.now()) {
      const valid = await verify(id, link, now);
      const data = valid && (await o.store.get(valid.row.storage_key));
      return valid && data ? { row: valid.row, data } : null;
    },

    /**
     * What GET /media answers for a signed URL: after the same checks as open(), a link straight to the store when it
     * offers one (S3), living no longer than the signed URL has left; else a way to stream the file (or a range of it)
     * from a store on this machine; else the bytes. Null when anything is off.
     */
    async download(
      id: string,
      link: SignedLinkParams,
      now = Date.now(),
      filename?: string,
    ): Promise<MediaDownload | null> {
      const valid = await verify(id, link, now);
      if (!valid) return null;
      const { row } = valid;
      const lifeS = Math.floor((Math.min(valid.expMs, row.expires_at) - now) / 1000);
      if (o.store.downloadUrl && lifeS >= OBJECT_STORAGE.minPresignS) {
        return {
          redirect: await o.store.downloadUrl(
            row.storage_key,
            row.mime,
            filename ?? `${row.id}.${MEDIA_EXTENSIONS[row.mime] ?? 'bin'}`,
            lifeS,
          ),
        };
      }
      const { openRead } = o.store;
      if (openRead) return { row, stream: (range) => openRead(row.storage_key, range) };
      const data = await o.store.get(row.storage_key);
      return data ? { row, data } : null;
    },

    ...mediaRemoval(o.db, o.store),
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
