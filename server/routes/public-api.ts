// Public API compatible with DreamAPI (docs/public-api.md): Bearer key, /api/async/<tool>, getAsyncResult, credits,
// three-step upload.
import { createHmac, hkdfSync, randomUUID, timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import { assertNotSuspended, authenticate, lazyServerKeys, requireApiKey, type AuthEnv } from '../accounts';
import { noteApiCall, type RequestLog } from '../accounts/request-log';
import { apiKeyIdOf } from '../accounts/api-keys';
import type { AppDeps } from './deps';
import { AppError, asOutage } from '../http/errors';
import { rateLimit } from '../http/rate-limit';
import { describeIssue, readBody, validate } from '../http/input';
import { currentRequestId, type Logger } from '../log';
import { callbackUrlProblem, dreamView, mediaByTask, webhookSecret } from '../tasks';
import { runOptionProblem } from '../engines';
import {
  ERROR_CODES,
  ERROR_MESSAGES,
  IDEMPOTENCY,
  MEDIA_LIMITS,
  PUBLIC_API_CODES,
  PUBLIC_TOOLS,
  TASK_MESSAGES,
  UPLOAD_SCENES,
  voiceById,
  voiceForLanguage,
  VOICES,
  type Feature,
  type PublicTool,
} from '../../src/lib/product-rules';
import {
  dreamTts,
  PUBLIC_TOOL_BODIES,
  reqIdBody,
  rotateBody,
  taskIdBody,
  uploadSceneBody,
} from '../../src/lib/api-contract';
import { openApiRoutes } from '../openapi';
import { bodyCap } from './body-cap';
import { receiveUpload } from './task-context';
import { DEVELOPER_API_READS, developerApiRoutes } from './developer-api';
import { createDirectUploads, type MediaInfo, type UploadGate } from '../media';
import { clientIp } from '../http/client-ip';
import type { UploadPolicyRow } from '../db';

/** DreamAPI's envelope is {code, message, data}; `msg` repeats the message for clients of the §8 envelope. */
function answer(code: number, message: string, data: unknown = null) {
  return { code, message, msg: message, data };
}
const success = (data: unknown) => answer(0, 'success', data);
/** A refusal also names the request (X-Request-Id), which a user can quote to support. */
export const refusal = (code: number, message: string) => {
  const requestId = currentRequestId();
  return requestId === undefined ? answer(code, message) : { ...answer(code, message), requestId };
};

function publicErrors(log: Logger) {
  return (thrown: Error, c: Context) => {
    const err = asOutage(thrown, log) ?? thrown;
    if (err instanceof AppError) {
      for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
      return c.json(refusal(err.code, err.message), err.status);
    }
    log.error('unhandled error', { method: c.req.method, path: c.req.path, error: err.stack ?? String(err) });
    return c.json(refusal(ERROR_CODES.internal, ERROR_MESSAGES.internal), 500);
  };
}

/** Where app.ts mounts the public API; the paths below are relative to it. */
export const PUBLIC_API_PREFIX = '/api';

/** Whether a path is the public API's, whose answers use its own envelope (unknown paths and methods included). */
export const isPublicApiPath = (path: string) => path === PUBLIC_API_PREFIX || path.startsWith(`${PUBLIC_API_PREFIX}/`);

/**
 * The calls a suspended account may still make: results, cancel, balance, webhook secret, finishing an upload already
 * made.
 */
const READS = new Set([
  '/getAsyncResult',
  '/cancelAsyncTask',
  '/remaining_credits',
  '/webhook_secret',
  '/file/v1/policy_upload_finish',
  ...DEVELOPER_API_READS,
]);

/** DreamAPI refuses bad parameters with 10192 "Illegal parameter"; we keep the code and name the field. */
const ILLEGAL_PARAMETER = PUBLIC_API_CODES.illegalParameter;
function body<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const result = validate(schema, raw);
  if (!result.success)
    throw new AppError(400, ILLEGAL_PARAMETER, `Illegal parameter: ${describeIssue(result.error, raw)}`);
  return result.data;
}

type ToolInput = { feature: Feature; input: Record<string, unknown>; callbackUrl?: string };

/** TTS names a voice by our id (audioId) or by a language (lan): stored as one voice id. */
function ttsInput(raw: unknown): Record<string, unknown> {
  const b = body(dreamTts, raw);
  const voice = b.audioId ? voiceById(b.audioId) : voiceForLanguage(b.lan ?? 'en-US');
  if (!voice) {
    const problem = b.audioId
      ? `audioId: unknown voice; voices are ${VOICES.map((v) => v.id).join(', ')}`
      : `lan: no voice for ${b.lan}; languages are ${[...new Set(VOICES.map((v) => v.language))].join(', ')}`;
    throw new AppError(400, ILLEGAL_PARAMETER, `Illegal parameter: ${problem}`);
  }
  return {
    text: b.text,
    voice: voice.id,
    ...(b.speed ? { speed: b.speed } : {}),
    ...(b.pitch !== undefined ? { pitch: b.pitch } : {}),
    callbackUrl: b.callbackUrl,
  };
}

/** The feature a tool runs; video_translate picks it by enableLipSync. */
function featureOf(tool: PublicTool, input: Record<string, unknown>): Feature {
  if (tool === 'video_translate/2.0')
    return input.enableLipSync ? 'video-translate-lip-sync' : 'video-translate-voice-only';
  return PUBLIC_TOOLS[tool];
}

/**
 * Turns a tool's DreamAPI fields (validated by PUBLIC_TOOL_BODIES) into a feature and its stored input; the task
 * service measures the input a per-second tool is charged on (src/lib/product-rules/limits.ts LENGTH_INPUTS).
 */
function toolInput(tool: PublicTool, raw: unknown): ToolInput {
  const parsed = (
    tool === 'do_tts_common' || tool === 'do_tts_pro' ? ttsInput(raw) : body(PUBLIC_TOOL_BODIES[tool], raw)
  ) as Record<string, unknown>;
  const { callbackUrl, ...input } = parsed;
  // Speech to text takes DreamAPI's list of locales too; engines take one language hint: the first.
  if (Array.isArray(input.lan)) input.lan = input.lan[0];
  // Clip tools take `duration` as the playground does; the task stores it as durationS, what engines and prices read.
  if (typeof input.duration === 'number') {
    input.durationS = input.duration;
    delete input.duration;
  }
  return { feature: featureOf(tool, input), input, callbackUrl: callbackUrl as string | undefined };
}

function idempotencyKey(c: Context): string | null {
  const key = c.req.header('idempotency-key');
  if (key === undefined) return null;
  if (key.length === 0 || key.length > IDEMPOTENCY.maxKeyLength || !/^[\x21-\x7e]+$/.test(key)) {
    throw new AppError(
      400,
      ILLEGAL_PARAMETER,
      `Illegal parameter: Idempotency-Key must be 1 to ${IDEMPOTENCY.maxKeyLength} visible ASCII characters`,
    );
  }
  return key;
}

export function publicApiRoutes(deps: AppDeps, requestLog: RequestLog, uploads: UploadGate) {
  const system = deps.tasks;
  const { db } = system;
  const { config } = deps;
  const keys = lazyServerKeys(config);
  let policyKey: Buffer | undefined;
  const policySignature = (reqId: string) =>
    createHmac(
      'sha256',
      (policyKey ??= Buffer.from(hkdfSync('sha256', keys().hashing, 'dreamapi-upload', 'policy', 32))),
    )
      .update(reqId)
      .digest('base64url');

  const app = new Hono<AuthEnv>();
  app.onError(publicErrors(deps.log));
  // The OpenAPI document is public: registered before the rate limit and the Bearer-key check.
  app.route('/', openApiRoutes(deps));
  const limited = rateLimit({
    limit: config.tasks.rateLimitPerMinute,
    trustProxy: config.trustProxy,
    store: deps.rateLimits?.store('api'),
    account: async (c) => (await authenticate(db, c))?.user.id,
  });

  // Step two of the upload is a form POST to the policy's host, authorised by the policy signature alone
  // (like a presigned storage URL), so it is registered before the Bearer-key check, and before the general
  // body cap, which would refuse a file: this path has the upload cap instead.
  app.post('/file/v1/upload', limited, async (c) => {
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

  // Every other path here, unknown ones included: the general body cap, the rate limit, then a valid key; a call that
  // passed them goes into the account's request log (written after the answer, batched).
  app.use(
    '*',
    bodyCap(config.bodyLimitBytes, refusal),
    limited,
    requireApiKey(db, { refuseSuspended: { reads: (c) => READS.has(c.req.path.slice(PUBLIC_API_PREFIX.length)) } }),
    requestLog.middleware,
  );

  const submitted = async (c: Context<AuthEnv>, tool: PublicTool) => {
    const user = c.get('user');
    const key = idempotencyKey(c);
    const { feature, input, callbackUrl } = toolInput(tool, await readBody(c));
    const unsupported = runOptionProblem(system.engines.chain(feature), feature, input);
    if (unsupported) throw new AppError(400, ILLEGAL_PARAMETER, `Illegal parameter: ${unsupported}`);
    if (callbackUrl !== undefined) {
      const problem = await callbackUrlProblem(callbackUrl, config.tasks.outboundAllowPrivate);
      if (problem) throw new AppError(400, ILLEGAL_PARAMETER, `Illegal parameter: callbackUrl: ${problem}`);
    }
    const { task, replayed } = await system.tasks.submit({
      userId: user.id,
      feature,
      input,
      source: 'api',
      idempotencyKey: key,
      callbackUrl: callbackUrl ?? null,
      keyId: apiKeyIdOf(user) ?? null,
      requestId: currentRequestId() ?? null,
    });
    if (replayed) c.header('Idempotent-Replayed', 'true');
    noteApiCall(c, { taskId: task.id, credits: replayed ? 0 : task.credits_held });
    return c.json(success({ taskId: task.id, status: task.status, credits: task.credits_held }));
  };
  for (const tool of Object.keys(PUBLIC_TOOLS) as PublicTool[]) app.post(`/async/${tool}`, (c) => submitted(c, tool));
  app.route('/', developerApiRoutes(deps));

  async function result(userId: string, taskId: string) {
    const task = await system.tasks.get(userId, taskId);
    return dreamView(task, (await mediaByTask(db, [taskId])).get(taskId) ?? [], system.media);
  }

  app.post('/getAsyncResult', async (c) => {
    const { taskId } = body(taskIdBody, await readBody(c));
    noteApiCall(c, { taskId });
    return c.json(success(await result(c.get('user').id, taskId)));
  });
  app.post('/cancelAsyncTask', async (c) => {
    const { taskId } = body(taskIdBody, await readBody(c));
    noteApiCall(c, { taskId });
    await system.tasks.cancel(c.get('user').id, taskId);
    system.queue.abort(taskId);
    return c.json(success(await result(c.get('user').id, taskId)));
  });
  app.post('/remaining_credits', async (c) => {
    await readBody(c);
    const row = await db
      .selectFrom('users')
      .select('credits')
      .where('id', '=', c.get('user').id)
      .executeTakeFirstOrThrow();
    return c.json(success({ remainingCredits: row.credits }));
  });
  app.post('/webhook_secret', async (c) => {
    const { rotate } = body(rotateBody, await readBody(c));
    return c.json(success({ secret: await webhookSecret(db, c.get('user').id, rotate) }));
  });

  // With S3 configured the file goes from the client straight to the bucket (a presigned POST); else to this server.
  const direct = system.media.incoming
    ? createDirectUploads({ db, incoming: system.media.incoming, media: system.media })
    : null;

  app.post('/file/v1/get_policy', async (c) => {
    const { scene } = body(uploadSceneBody, await readBody(c));
    if (direct) return c.json(success(await direct.issue(c.get('user').id, scene)));
    const reqId = randomUUID();
    const now = Date.now();
    const expiresAt = now + MEDIA_LIMITS.uploadPolicyTtlMs;
    await db
      .insertInto('upload_policies')
      .values({ req_id: reqId, user_id: c.get('user').id, scene, created_at: now, expires_at: expiresAt })
      .execute();
    return c.json(
      success({
        reqId,
        host: `${config.publicUrl}${PUBLIC_API_PREFIX}/file/v1/upload`,
        expireAt: expiresAt,
        // Send these as form fields beside the file field "file".
        fields: { reqId, signature: policySignature(reqId) },
        accept: UPLOAD_SCENES[scene],
      }),
    );
  });
  app.post('/file/v1/policy_upload_finish', async (c) => {
    const { reqId } = body(reqIdBody, await readBody(c));
    const userId = c.get('user').id;
    const finished = (info: MediaInfo) =>
      c.json(success({ url: info.url, fileId: info.id, mime: info.mime, size: info.size, durationS: info.durationS }));
    if (direct)
      return finished(
        await direct.finish(userId, reqId, (bytes) => uploads.enter(clientIp(c, config.trustProxy), bytes)),
      );
    const policy = await db
      .selectFrom('upload_policies')
      .selectAll()
      .where('req_id', '=', reqId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!policy) throw new AppError(404, ERROR_CODES.notFound, TASK_MESSAGES.uploadPolicyUnknown);
    const media = policy.media_id ? await system.media.byId(policy.media_id) : undefined;
    if (!media) throw new AppError(409, ERROR_CODES.conflict, TASK_MESSAGES.uploadMissing);
    return finished(system.media.info(media));
  });

  return app;
}
