// The media area: stores uploads and results, checks uploads by content, signs expiring URLs, removes expired files.
import { createHmac, createSecretKey, hkdfSync, randomUUID, timingSafeEqual, type KeyObject } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { MediaRow, Schema } from '../db';
import {
  CHORES,
  MEDIA_EXTENSIONS,
  MEDIA_LIMITS,
  OBJECT_STORAGE,
  POSTERS,
  type MediaKind,
} from '../../src/lib/product-rules';
import type { Logger } from '../log';
import type { ProbedMedia } from './probe';
import { checkUploadFile } from './upload-check';
import { sweepUploadPolicies } from './policy-sweep';
import { withWorkDir } from '../tools';
import { renderPoster } from './poster';
import { s3MediaStore, type S3StoreSettings } from './s3-store';
import { localMediaStore, type MediaStore } from './store';
import type { MediaInfo } from '../../src/lib/api/types';

export { localMediaStore } from './store';
export { s3MediaStore, type S3StoreSettings } from './s3-store';
export type { IncomingUploads, MediaStore } from './store';
export { checkUploadFile } from './upload-check';
export { createDirectUploads, type DirectUploads } from './direct-upload';
export { sniffMedia, wavDuration } from './sniff';
export { probeMedia, probeMediaFile, type ProbedMedia } from './probe';
export { createUploadGate, type UploadGate, type UploadPass } from './upload-gate';

export type { MediaInfo };

/** The query of a signed media URL: its expiry and signature, and the share link it was handed out by, if any. */
export interface SignedLinkParams {
  exp?: string;
  sig?: string;
  share?: string;
}

/** The signed-link query of a media URL's search parameters. */
export function signedLinkParams(query: (name: string) => string | null | undefined): SignedLinkParams {
  return { exp: query('exp') ?? undefined, sig: query('sig') ?? undefined, share: query('share') ?? undefined };
}

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

export interface MediaServiceOptions {
  db: Kysely<Schema>;
  store: MediaStore;
  /** Absolute base of signed URLs, e.g. http://localhost:8787 */
  publicUrl: string;
  retentionMs: number;
  /** Secret the URL signatures are derived from (resolved lazily so tests never write a secret file). */
  secret: () => Buffer;
}

export function createMediaService(o: MediaServiceOptions) {
  // A ready key object: handing createHmac raw bytes makes it prepare a key on every signature, which costs more than
  // the HMAC.
  let signingKey: KeyObject | undefined;
  const key = () =>
    (signingKey ??= createSecretKey(Buffer.from(hkdfSync('sha256', o.secret(), 'dreamapi-media', 'signed-url', 32))));
  // A link handed out by a share page names its share: the signature covers it, so it cannot be dropped or swapped.
  const sign = (id: string, exp: number, share?: string) =>
    createHmac('sha256', key())
      .update(share ? `${id}.${exp}.${share}` : `${id}.${exp}`)
      .digest('base64url');

  /** A signed URL to a file; `share` binds it to a share link, so revoking the share stops it at once. */
  function signedUrl(row: Pick<MediaRow, 'id' | 'mime' | 'expires_at'>, now = Date.now(), share?: string): string {
    // A link never outlives the file it points to.
    const exp = Math.min(now + MEDIA_LIMITS.signedUrlTtlMs, row.expires_at);
    const ext = MEDIA_EXTENSIONS[row.mime] ?? 'bin';
    return `${o.publicUrl}/media/${row.id}.${ext}?exp=${exp}&sig=${sign(row.id, exp, share)}${share ? `&share=${encodeURIComponent(share)}` : ''}`;
  }

  /**
   * A signed URL's expiry and signature checked, and for a share's link that the share is still live and is of the
   * file's task; the row while the link and the file are valid, else null.
   */
  async function verify(id: string, link: SignedLinkParams, now: number) {
    const { exp, sig, share } = link;
    if (!exp || !sig || !/^\d{1,15}$/.test(exp) || (share !== undefined && !/^[\w-]{1,64}$/.test(share))) return null;
    const expMs = Number(exp);
    if (expMs < now) return null;
    const expected = Buffer.from(sign(id, expMs, share));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    const row = await o.db.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || row.expires_at < now) return null;
    if (share !== undefined) {
      const live = await o.db
        .selectFrom('share_links')
        .select('id')
        .where('id', '=', share)
        .where('task_id', '=', row.task_id ?? '')
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (!live) return null;
    }
    return { row, expMs };
  }

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

    /** Removes the given media (one run's outputs that were not kept), with their poster frames. */
    async deleteByIds(ids: readonly string[]) {
      if (ids.length === 0) return;
      const rows = await o.db
        .selectFrom('media')
        .select(['id', 'storage_key'])
        .where((eb) => eb.or([eb('id', 'in', ids), eb('poster_of', 'in', ids)]))
        .execute();
      if (rows.length === 0) return;
      for (const row of rows) await o.store.delete(row.storage_key);
      await o.db
        .deleteFrom('media')
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
    },

    /** Removes a task's media (history delete). */
    async deleteForTask(taskId: string) {
      const rows = await o.db.selectFrom('media').select(['id', 'storage_key']).where('task_id', '=', taskId).execute();
      for (const row of rows) await o.store.delete(row.storage_key);
      await o.db.deleteFrom('media').where('task_id', '=', taskId).execute();
    },

    /**
     * The retention chore's media pass: files past their retention are removed, then their rows, `pageRows` at a time
     * until none is left, so a backlog never loads at once (docs/scaling.md "Chores").
     */
    async cleanup(now = Date.now(), pageRows: number = CHORES.pageRows): Promise<number> {
      let removed = 0;
      for (;;) {
        const rows = await o.db
          .selectFrom('media')
          .select(['id', 'storage_key'])
          .where('expires_at', '<', now)
          .orderBy('expires_at')
          .limit(pageRows)
          .execute();
        // Files first: a row may outlive its file until the next pass, never the other way round.
        for (const row of rows) await o.store.delete(row.storage_key);
        if (rows.length > 0)
          await o.db
            .deleteFrom('media')
            .where(
              'id',
              'in',
              rows.map((r) => r.id),
            )
            .execute();
        removed += rows.length;
        if (rows.length < pageRows) break;
      }
      await sweepUploadPolicies(o.db, o.store.incoming ?? null, now);
      return removed;
    },
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
