// Share links: an owner's opt-in public link to one finished task's results; signed (id, expiry, HMAC), expiring,
// revocable.
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Schema, ShareLinkRow } from '../db';
import { AppError } from '../http/errors';
import type { MediaService } from '../media';
import { engineLabel, ERROR_CODES, HISTORY_MESSAGES, inputSummary, SHARE_LINKS } from '../../src/lib/product-rules';
import type { ShareLinkView, SharedResult } from '../../src/lib/api/types';
import { mediaByTask, outputsExpiredAt, taskView } from './views';

export interface ShareLinkOptions {
  db: Kysely<Schema>;
  media: MediaService;
  /** The server secret the signatures are derived from. */
  secret: () => Buffer;
  /** Where the site is served (config.siteUrl): the public page lives there. */
  siteUrl: string;
}

const notFound = () => new AppError(404, ERROR_CODES.notFound, HISTORY_MESSAGES.shareNotFound);

export function createShareLinks(o: ShareLinkOptions) {
  const { db } = o;
  let key: Buffer | undefined;
  const sign = (id: string, exp: number) =>
    createHmac('sha256', (key ??= Buffer.from(hkdfSync('sha256', o.secret(), 'dreamapi-share', 'share-link', 32))))
      .update(`${id}.${exp}`)
      .digest('base64url');

  /** id.expiry.signature: a forged or altered token is refused before the database is asked. */
  const token = (row: Pick<ShareLinkRow, 'id' | 'expires_at'>) =>
    `${row.id}.${Number(row.expires_at).toString(36)}.${sign(row.id, Number(row.expires_at))}`;

  function linkView(row: ShareLinkRow): ShareLinkView {
    return {
      id: row.id,
      taskId: row.task_id,
      url: `${o.siteUrl}${SHARE_LINKS.pagePath}?${SHARE_LINKS.tokenParam}=${token(row)}`,
      createdAt: Number(row.created_at),
      expiresAt: Number(row.expires_at),
    };
  }

  async function ownTask(userId: string, taskId: string) {
    const task = await db
      .selectFrom('tasks')
      .selectAll()
      .where('id', '=', taskId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!task) throw new AppError(404, ERROR_CODES.notFound, HISTORY_MESSAGES.shareNotFound);
    return task;
  }

  const live = (now: number) =>
    db.selectFrom('share_links').selectAll().where('revoked_at', 'is', null).where('expires_at', '>', now);

  return {
    /** A new link to a succeeded task whose results are kept; it never outlives them. */
    async create(userId: string, taskId: string, ttlDays: number, now = Date.now()): Promise<ShareLinkView> {
      const task = await ownTask(userId, taskId);
      const media = ((await mediaByTask(db, [taskId])).get(taskId) ?? []).filter((m) => m.poster_of === null);
      if (task.status !== 'succeeded' || media.length === 0 || outputsExpiredAt(task, media, now) !== null) {
        throw new AppError(409, ERROR_CODES.conflict, HISTORY_MESSAGES.shareNotShareable);
      }
      const existing = await live(now).where('task_id', '=', taskId).execute();
      if (existing.length >= SHARE_LINKS.perTask)
        throw new AppError(409, ERROR_CODES.conflict, HISTORY_MESSAGES.shareTooMany);
      const expiresAt = Math.min(now + ttlDays * SHARE_LINKS.dayMs, ...media.map((m) => Number(m.expires_at)));
      const row: ShareLinkRow = {
        id: randomBytes(16).toString('base64url'),
        user_id: userId,
        task_id: taskId,
        created_at: now,
        expires_at: expiresAt,
        revoked_at: null,
      };
      await db.insertInto('share_links').values(row).execute();
      return linkView(row);
    },

    /** The task's links that still work, newest first. */
    async list(userId: string, taskId: string, now = Date.now()): Promise<ShareLinkView[]> {
      await ownTask(userId, taskId);
      const rows = await live(now).where('task_id', '=', taskId).orderBy('created_at', 'desc').execute();
      return rows.map(linkView);
    },

    /** Stops a link at once; revoking one already gone is not an error. */
    async revoke(userId: string, linkId: string, now = Date.now()): Promise<void> {
      const row = await db
        .selectFrom('share_links')
        .select('id')
        .where('id', '=', linkId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row) throw notFound();
      await db
        .updateTable('share_links')
        .set({ revoked_at: now })
        .where('id', '=', linkId)
        .where('revoked_at', 'is', null)
        .execute();
    },

    /** What the public page shows for a token; 404 for anything forged, expired, revoked or no longer kept. */
    async view(raw: string, now = Date.now()): Promise<SharedResult> {
      const [id, exp36, sig] = raw.split('.');
      const exp = exp36 && /^[0-9a-z]{1,12}$/.test(exp36) ? parseInt(exp36, 36) : NaN;
      if (!id || !sig || !Number.isSafeInteger(exp) || exp <= now) throw notFound();
      const expected = Buffer.from(sign(id, exp));
      const given = Buffer.from(sig);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw notFound();
      const link = await live(now).where('id', '=', id).executeTakeFirst();
      if (!link) throw notFound();
      const task = await db.selectFrom('tasks').selectAll().where('id', '=', link.task_id).executeTakeFirst();
      if (!task || task.status !== 'succeeded') throw notFound();
      // Its media links name this share: revoking it stops them at once, not when they expire.
      const shown = taskView(task, (await mediaByTask(db, [task.id])).get(task.id) ?? [], o.media, link.id);
      if (shown.outputsExpired || shown.outputs.length === 0) throw notFound();
      return {
        feature: task.feature,
        engineLabel: engineLabel(task.engine),
        summary: inputSummary(JSON.parse(task.input)).text,
        createdAt: Number(task.created_at),
        expiresAt: Number(link.expires_at),
        outputs: shown.outputs,
      };
    },
  };
}

export type ShareLinks = ReturnType<typeof createShareLinks>;
