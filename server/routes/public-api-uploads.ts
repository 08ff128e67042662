// The public API's three-step upload: a policy (get_policy), the file sent with it (upload, or straight to the S3
// bucket), then policy_upload_finish naming the stored file.
import { createHmac, hkdfSync, randomUUID, timingSafeEqual } from 'node:crypto';
import { Hono, type MiddlewareHandler } from 'hono';
import { assertNotSuspended, lazyServerKeys, type AuthEnv } from '../accounts';
import type { AppDeps } from './deps';
import { AppError } from '../http/errors';
import { readBody } from '../http/input';
import { ERROR_CODES, MEDIA_LIMITS, TASK_MESSAGES, UPLOAD_SCENES } from '../../src/lib/product-rules';
import { reqIdBody, uploadSceneBody } from '../../src/lib/api-contract';
import { receiveUpload } from './task-context';
import { createDirectUploads, recordUploadPolicy, userUploadPolicy, type MediaInfo, type UploadGate } from '../media';
import { clientIp } from '../http/client-ip';
import type { UploadPolicyRow } from '../db';
import { body, success } from './public-api-envelope';

/** What both halves share: the app's parts, the upload gate, and where step two's form is posted. */
export interface PublicUploadOptions {
  deps: AppDeps;
  uploads: UploadGate;
  /** Absolute URL of POST /file/v1/upload, handed out as the policy's host. */
  uploadUrl: string;
}

/** The signature of a policy's reqId, with a key derived from the server's hashing key. */
function policySigner(deps: AppDeps) {
  const keys = lazyServerKeys(deps.config);
  let policyKey: Buffer | undefined;
  return (reqId: string) =>
    createHmac(
      'sha256',
      (policyKey ??= Buffer.from(hkdfSync('sha256', keys().hashing, 'dreamapi-upload', 'policy', 32))),
    )
      .update(reqId)
      .digest('base64url');
}

/**
 * The upload's two halves: `receive` (step two, authorised by the policy signature alone, mounted before the key
 * check) and `policies` (steps one and three, mounted behind it).
 */
export function publicUploadRoutes(o: PublicUploadOptions, limited: MiddlewareHandler) {
  const { deps, uploads } = o;
  const system = deps.tasks;
  const { db } = system;
  const { config } = deps;
  const policySignature = policySigner(deps);

  const receive = new Hono<AuthEnv>();
  // Step two is a form POST to the policy's host, authorised by the policy signature alone (like a presigned storage
  // URL); it has the upload cap instead of the general body cap, which would refuse a file.
  receive.post('/file/v1/upload', limited, async (c) => {
    let policy: UploadPolicyRow | undefined;
    // The policy is checked from the form's fields before the file is read, so a forged or stale one costs no upload.
    const authorize = async (fields: Record<string, string>) => {
      const reqId = fields.reqId ?? '';
      const expected = Buffer.from(policySignature(reqId));
      const given = Buffer.from(fields.signature ?? '');
      policy = reqId
        ? await db.selectFrom('upload_policies').selectAll().where('req_id', '=', reqId).executeTakeFirst()
        : undefined;
      if (
        !policy ||
        policy.expires_at < Date.now() ||
        expected.length !== given.length ||
        !timingSafeEqual(expected, given)
      ) {
        throw new AppError(403, ERROR_CODES.forbidden, TASK_MESSAGES.uploadPolicyUnknown);
      }
      // A policy issued before the account was suspended does not let a file in afterwards.
      assertNotSuspended(
        await db.selectFrom('users').select('suspended').where('id', '=', policy.user_id).executeTakeFirstOrThrow(),
      );
      return policy.user_id;
    };
    return receiveUpload(c, { gate: uploads, trustProxy: config.trustProxy, authorize }, async ({ file, size }) => {
      const { req_id: reqId, user_id: userId, scene } = policy!;
      const saved = await system.media.saveUploadFile(userId, file, size, UPLOAD_SCENES[scene] ?? UPLOAD_SCENES.any!);
      await db.updateTable('upload_policies').set({ media_id: saved.id }).where('req_id', '=', reqId).execute();
      return c.json(success({ reqId }));
    });
  });

  const policies = new Hono<AuthEnv>();
  // With S3 configured the file goes from the client straight to the bucket (a presigned POST); else to this server.
  const direct = system.media.incoming
    ? createDirectUploads({ db, incoming: system.media.incoming, media: system.media })
    : null;

  policies.post('/file/v1/get_policy', async (c) => {
    const { scene } = body(uploadSceneBody, await readBody(c));
    if (direct) return c.json(success(await direct.issue(c.get('user').id, scene)));
    const reqId = randomUUID();
    const now = Date.now();
    const expiresAt = now + MEDIA_LIMITS.uploadPolicyTtlMs;
    await recordUploadPolicy(db, { reqId, userId: c.get('user').id, scene, now, expiresAt });
    return c.json(
      success({
        reqId,
        host: o.uploadUrl,
        expireAt: expiresAt,
        // Send these as form fields beside the file field "file".
        fields: { reqId, signature: policySignature(reqId) },
        accept: UPLOAD_SCENES[scene],
      }),
    );
  });
  policies.post('/file/v1/policy_upload_finish', async (c) => {
    const { reqId } = body(reqIdBody, await readBody(c));
    const userId = c.get('user').id;
    const finished = (info: MediaInfo) =>
      c.json(success({ url: info.url, fileId: info.id, mime: info.mime, size: info.size, durationS: info.durationS }));
    if (direct)
      return finished(
        await direct.finish(userId, reqId, (bytes) => uploads.enter(clientIp(c, config.trustProxy), bytes)),
      );
    const policy = await userUploadPolicy(db, userId, reqId);
    const media = policy.media_id ? await system.media.byId(policy.media_id) : undefined;
    if (!media) throw new AppError(409, ERROR_CODES.conflict, TASK_MESSAGES.uploadMissing);
    return finished(system.media.info(media));
  });

  return { receive, policies };
}
