// Uploads straight to the bucket: get_policy hands out a presigned POST, finish checks what arrived and records it as
// media.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { MediaRow, Schema } from '../db';
import { AppError } from '../http/errors';
import { withWorkDir } from '../tools';
import {
  DIRECT_UPLOADS,
  ERROR_CODES,
  OBJECT_STORAGE_MESSAGES,
  TASK_MESSAGES,
  UPLOAD_LIMITS,
  UPLOAD_SCENES,
  type MediaKind,
} from '../../src/lib/product-rules';
import type { MediaInfo } from '../../src/lib/api/types';
import type { ProbedMedia } from './probe';
import { sniffMedia } from './sniff';
import type { IncomingFile, IncomingUploads } from './store';
import { checkProbed, checkSniffed, checkUploadFile, checkUploadSize } from './upload-check';
import type { UploadPass } from './upload-gate';
import { recordUploadPolicy, userUploadPolicy } from './upload-policies';

/** What a policy answers: where to POST the file and the fields to send before it (the file last, in "file"). */
export interface DirectUploadPolicy {
  reqId: string;
  host: string;
  expireAt: number;
  fields: Record<string, string>;
  accept: MediaKind[];
}

/**
 * What direct uploads use of the media service (server/media/index.ts), stated here because that module exports this
 * one.
 */
export interface MediaRecords {
  byId(id: string): Promise<MediaRow | undefined>;
  info(row: MediaRow): MediaInfo;
  saveStored(
    userId: string,
    probed: ProbedMedia,
    size: number,
    place: (key: string) => Promise<void>,
  ): Promise<MediaInfo>;
  deleteByIds(ids: readonly string[]): Promise<void>;
}

export interface DirectUploadsOptions {
  db: Kysely<Schema>;
  incoming: IncomingUploads;
  media: MediaRecords;
}

/** An ID3 tag (MP3 and others) may be longer than the head read; only the whole file tells what follows it. */
const startsWithId3 = (head: Buffer) => head.length >= 3 && head.toString('latin1', 0, 3) === 'ID3';

/** A refusal of the file itself (its type, size or length), as opposed to storage or tools being unavailable. */
const refusesFile = (error: unknown) =>
  error instanceof AppError &&
  error.status >= 400 &&
  error.status < 500 &&
  error.status !== 409 &&
  error.status !== 429;

export function createDirectUploads(o: DirectUploadsOptions) {
  const { db, incoming } = o;

  /** The kinds a policy's scene takes (an unknown scene of an old row: any). */
  const kindsOf = (scene: string): readonly MediaKind[] => UPLOAD_SCENES[scene] ?? UPLOAD_SCENES.any!;

  /**
   * Everything the checks of a pass-through upload cover, on the object where it lies: the sizes from its metadata,
   * its format from its first bytes (a stranger refused before the rest is fetched, an image settled there), then
   * audio and video fetched to a scratch file and measured by the tools, which read local files only.
   */
  async function check(reqId: string, file: IncomingFile, allowed: readonly MediaKind[]): Promise<ProbedMedia> {
    checkUploadSize(file.size, allowed);
    const head = await incoming.head(reqId, file, Math.min(file.size, DIRECT_UPLOADS.sniffBytes));
    // A head the sniffer cannot read to its end leaves the decision to the whole file.
    let unsure = startsWithId3(head);
    const sniffed = await sniffMedia(head).catch(() => {
      unsure = true;
      return null;
    });
    checkSniffed(sniffed, allowed, 'file', unsure);
    if (sniffed?.kind === 'image')
      return checkProbed({ kind: 'image', mime: sniffed.mime, durationS: null }, file.size, allowed);
    return withWorkDir('incoming-', async (dir) => {
      const local = path.join(dir, 'upload');
      await incoming.download(reqId, file, local);
      return checkUploadFile(local, file.size, allowed);
    });
  }

  return {
    /** A one-use policy whose presigned POST takes one file of the scene's kinds, within their largest size cap. */
    async issue(userId: string, scene: string): Promise<DirectUploadPolicy> {
      const reqId = randomUUID();
      const now = Date.now();
      const accept = [...kindsOf(scene)];
      const expireAt = now + DIRECT_UPLOADS.formTtlS * 1000;
      const form = await incoming.form(reqId, {
        maxBytes: Math.max(...accept.map((k) => UPLOAD_LIMITS[k].maxBytes)),
        // One kind: its type family. Several (any): the policy cannot say "one of", so the bytes decide at finish.
        typePrefix: accept.length === 1 ? `${accept[0]}/` : '',
        expiresS: DIRECT_UPLOADS.formTtlS,
      });
      await recordUploadPolicy(db, { reqId, userId, scene, now, expiresAt: expireAt });
      return { reqId, host: form.url, expireAt, fields: form.fields, accept };
    },

    /**
     * Checks the file sent under `reqId` and records it, once: a second call answers the same media. A file that fails
     * a check is removed and refused with the reason. `enter` counts the check against the upload caps (it fetches
     * audio and video whole). The checked object is copied to a key of its own: the policy's form cannot overwrite
     * that.
     */
    async finish(userId: string, reqId: string, enter: (bytes: number) => UploadPass): Promise<MediaInfo> {
      const policy = await userUploadPolicy(db, userId, reqId);
      const done = async (mediaId: string | null) => {
        const row = mediaId ? await o.media.byId(mediaId) : undefined;
        return row ? o.media.info(row) : null;
      };
      const earlier = await done(policy.media_id);
      if (earlier) return earlier;
      const file = await incoming.stat(reqId);
      if (!file) throw new AppError(409, ERROR_CODES.conflict, TASK_MESSAGES.uploadMissing);
      const pass = enter(file.size);
      try {
        pass.claimAccount(userId);
        let probed: ProbedMedia;
        try {
          probed = await check(reqId, file, kindsOf(policy.scene));
        } catch (error) {
          if (!refusesFile(error)) throw error;
          await incoming.discard(reqId);
          const refusal = error as AppError;
          throw new AppError(
            refusal.status,
            refusal.code,
            `${refusal.message}; ${OBJECT_STORAGE_MESSAGES.uploadRemoved}`,
            refusal.headers,
          );
        }
        const saved = await o.media.saveStored(userId, probed, file.size, (key) =>
          incoming.adopt(reqId, file, key, probed.mime),
        );
        // Two finishes at once: the first to record its media wins, the other's copy goes.
        const claimed = await db
          .updateTable('upload_policies')
          .set({ media_id: saved.id })
          .where('req_id', '=', reqId)
          .where('media_id', 'is', null)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) === 0) {
          await o.media.deleteByIds([saved.id]);
          const winner = await db
            .selectFrom('upload_policies')
            .select('media_id')
            .where('req_id', '=', reqId)
            .executeTakeFirst();
          const won = await done(winner?.media_id ?? null);
          if (won) return won;
          throw new AppError(409, ERROR_CODES.conflict, TASK_MESSAGES.uploadMissing);
        }
        // The media is recorded: a storage hiccup here leaves the incoming copy to the policy sweep, not a failed
        // finish.
        await incoming.discard(reqId).catch(() => undefined);
        return saved;
      } finally {
        pass.release();
      }
    },
  };
}

export type DirectUploads = ReturnType<typeof createDirectUploads>;
