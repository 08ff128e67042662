// Public API compatible with DreamAPI (docs/public-api.md): Bearer key, /api/async/<tool>, getAsyncResult, credits,
// three-step upload. This module mounts the parts in the order their checks need.
import { Hono } from 'hono';
import { authenticate, requireApiKey, type AuthEnv } from '../accounts';
import type { RequestLog } from '../accounts/request-log';
import type { AppDeps } from './deps';
import { rateLimit } from '../http/rate-limit';
import { openApiRoutes } from '../openapi';
import { bodyCap } from './body-cap';
import { DEVELOPER_API_READS, developerApiRoutes } from './developer-api';
import type { UploadGate } from '../media';
import { publicErrors, refusal } from './public-api-envelope';
import { publicTaskRoutes } from './public-api-tasks';
import { publicUploadRoutes } from './public-api-uploads';

export { refusal };

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

export function publicApiRoutes(deps: AppDeps, requestLog: RequestLog, uploads: UploadGate) {
  const { db } = deps.tasks;
  const { config } = deps;

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
  const upload = publicUploadRoutes(
    { deps, uploads, uploadUrl: `${config.publicUrl}${PUBLIC_API_PREFIX}/file/v1/upload` },
    limited,
  );

  // Step two of the upload is authorised by the policy signature alone, so it is registered before the Bearer-key
  // check, and before the general body cap, which would refuse a file: that path has the upload cap instead.
  app.route('/', upload.receive);

  // Every other path here, unknown ones included: the general body cap, the rate limit, then a valid key; a call that
  // passed them goes into the account's request log (written after the answer, batched).
  app.use(
    '*',
    bodyCap(config.bodyLimitBytes, refusal),
    limited,
    requireApiKey(db, { refuseSuspended: { reads: (c) => READS.has(c.req.path.slice(PUBLIC_API_PREFIX.length)) } }),
    requestLog.middleware,
  );

  app.route('/', publicTaskRoutes(deps));
  app.route('/', developerApiRoutes(deps));
  app.route('/', upload.policies);
  return app;
}
