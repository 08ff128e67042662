// Signed media URLs: the link handed out for a file (bound to a share link when a share page hands it out), and its
// check when it comes back.
import { createHmac, createSecretKey, hkdfSync, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { MediaRow, Schema } from '../db';
import { MEDIA_EXTENSIONS, MEDIA_LIMITS } from '../../src/lib/product-rules';

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

export interface SignedLinkOptions {
  db: Kysely<Schema>;
  /** Absolute base of signed URLs, e.g. http://localhost:8787 */
  publicUrl: string;
  /** Secret the URL signatures are derived from (resolved lazily so tests never write a secret file). */
  secret: () => Buffer;
}

export function signedLinks(o: SignedLinkOptions) {
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

  return { signedUrl, verify };
}
