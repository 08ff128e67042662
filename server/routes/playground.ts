// Playground API (SPEC.md §7 /api-playground/*): session token, JSON, §8 envelope; submits, polls, lists, cancels and
// deletes tasks.
import {
  ERROR_CODES,
  MESSAGES,
  PLAYGROUND_PREFIX,
  RUN_OPTION_NAMES,
  SAMPLE_MODELS,
  TASK_MESSAGES,
  UPLOAD_SCENES,
  VOICES,
  type Feature,
  type RunOption,
} from '../../src/lib/product-rules';
import { Hono, type Context } from 'hono';
import { requireUser, type AuthEnv } from '../accounts';
import type { AppDeps } from './deps';
import { AppError, envelope } from '../http/errors';
import { runOptionProblem } from '../engines';
import { parseInput, validBody } from '../http/input';
import { listTasks, mediaByTask, rerunTask, taskView, webhookSecret } from '../tasks';
import {
  animateBody,
  clothesBody,
  dialogueBody,
  listBody,
  reqIdBody,
  rotateBody,
  talkingFaceBody,
  taskIdBody,
  translateBody,
  ttsBody,
  ttsCloneBody,
  uploadSceneBody,
  voiceCloneBody,
} from '../../src/lib/api-contract';
import { bodyCap } from './body-cap';
import { FEATURES_CACHE_CONTROL, offerAnswer } from './features';
import { receiveUpload } from './task-context';
import { createDirectUploads, type UploadGate } from '../media';
import { clientIp } from '../http/client-ip';

const ok = (data: unknown) => envelope(0, MESSAGES.successfully, data);

/**
 * The advanced settings a body gave (src/lib/product-rules/run-options.ts), stored with the task's input for its
 * engine.
 */
const settings = (b: Partial<Record<RunOption, unknown>>) =>
  Object.fromEntries(
    RUN_OPTION_NAMES.filter((name) => b[name] !== undefined && b[name] !== '').map((name) => [name, b[name]]),
  );

/** Where app.ts mounts the playground API (the site's client calls the same constant); the paths below are relative. */
export { PLAYGROUND_PREFIX };

/**
 * The calls a suspended account may still make here (with every GET): they read or stop tasks, never charge or store.
 */
const READS = new Set([
  '/video_tools/v1/poll',
  '/video_tools/v1/cancel',
  '/video_tools/v1/delete',
  '/video_tools/v1/get_list',
  '/account/v1/webhook_secret',
]);

export function playgroundRoutes(deps: AppDeps, uploads: UploadGate) {
  const system = deps.tasks;
  const db = system.db;
  const app = new Hono<AuthEnv>();
  const signedIn = requireUser(db, {
    refuseSuspended: { reads: (c) => c.req.method === 'GET' || READS.has(c.req.path.slice(PLAYGROUND_PREFIX.length)) },
  });

  // Uploads checked by content; the answer carries a signed URL to pass to a task. Registered before the general
  // body cap below, which would refuse a file: this path has the upload cap instead.
  app.post('/file/v1/upload', signedIn, async (c) => {
    const userId = c.get('user').id;
    return receiveUpload(
      c,
      { gate: uploads, trustProxy: deps.config.trustProxy, account: userId },
      async ({ file, size, fields }) => {
        const { scene } = parseInput(uploadSceneBody, { scene: fields.scene });
        return c.json(ok(await system.media.saveUploadFile(userId, file, size, UPLOAD_SCENES[scene]!)));
      },
    );
  });

  // What this server offers, public: the nav, home cards, screens, reference, pricing and login modal read it before
  // any input.
  app.get('/task/v1/features', (c) => {
    c.header('Cache-Control', FEATURES_CACHE_CONTROL);
    return c.json(ok(offerAnswer(system.engines, deps.config)));
  });

  // Every other path here, unknown ones included: the general body cap, then a session.
  app.use('*', bodyCap(deps.config.bodyLimitBytes), signedIn);

  // With S3 configured, uploads go from the browser straight to the bucket, checked and recorded on finish (the public
  // API's code); null tells the playground to send the file here instead.
  const direct = system.media.incoming
    ? createDirectUploads({ db, incoming: system.media.incoming, media: system.media })
    : null;
  app.post('/file/v1/get_policy', async (c) => {
    const { scene } = await validBody(c, uploadSceneBody);
    return c.json(ok(direct ? await direct.issue(c.get('user').id, scene) : null));
  });
  app.post('/file/v1/policy_upload_finish', async (c) => {
    const { reqId } = await validBody(c, reqIdBody);
    if (!direct) throw new AppError(404, ERROR_CODES.notFound, TASK_MESSAGES.uploadPolicyUnknown);
    return c.json(
      ok(
        await direct.finish(c.get('user').id, reqId, (bytes) =>
          uploads.enter(clientIp(c, deps.config.trustProxy), bytes),
        ),
      ),
    );
  });

  async function view(id: string) {
    const task = (await system.tasks.byId(id))!;
    return taskView(task, (await mediaByTask(db, [id])).get(id) ?? [], system.media);
  }

  async function submit(c: Context<AuthEnv>, feature: Feature, input: Record<string, unknown>) {
    const unsupported = runOptionProblem(system.engines.chain(feature), feature, input);
    if (unsupported) throw new AppError(400, ERROR_CODES.invalidInput, unsupported);
    const { task } = await system.tasks.submit({ userId: c.get('user').id, feature, input, source: 'playground' });
    return c.json(envelope(0, MESSAGES.submitSuccessfully, await view(task.id)));
  }

  // Speech: TTS (Common or Pro), voice clone, TTS with a cloned voice, dialogue.
  app.post('/speech/v1/tts', async (c) => {
    const b = await validBody(c, ttsBody);
    return submit(c, b.quality === 'pro' ? 'tts-pro' : 'tts-common', {
      text: b.text,
      voice: b.voiceId,
      ...settings(b),
    });
  });
  app.post('/speech/v1/voice_clone', async (c) =>
    submit(c, 'voice-clone', { ...(await validBody(c, voiceCloneBody)) }),
  );
  app.post('/speech/v1/tts_clone', async (c) => submit(c, 'tts-clone', { ...(await validBody(c, ttsCloneBody)) }));
  app.post('/speech/v1/dialogue', async (c) => {
    const b = await validBody(c, dialogueBody);
    return submit(c, 'dialogue', { lines: b.lines, voices: b.voices, ...settings(b) });
  });
  app.get('/speech/v1/voice_list', (c) =>
    c.json(ok({ list: VOICES.map(({ id, name, language, gender }) => ({ id, name, language, gender })) })),
  );

  // Video tools: image/text/character to video, translation, talking face, clothes changer.
  app.post('/video_tools/v1/animate_video', async (c) => {
    const b = await validBody(c, animateBody);
    const feature: Feature =
      b.type === 'image' ? 'image-to-video' : b.type === 'character' ? 'character-to-video' : 'text-to-video';
    return submit(c, feature, {
      prompt: b.prompt,
      imageUrl: b.imageUrl,
      modelId: b.modelId,
      resolution: b.resolution,
      durationS: b.duration,
      ...settings(b),
    });
  });
  for (const [path, feature] of [
    ['/did_video_task/v1/translate_lip_submit', 'video-translate-lip-sync'],
    ['/did_video_task/v1/translate_submit', 'video-translate-voice-only'],
  ] as const) {
    app.post(path, async (c) => {
      const b = await validBody(c, translateBody);
      return submit(c, feature, { ...b });
    });
  }
  app.post('/talking_face/v1/create_task', async (c) => {
    const b = await validBody(c, talkingFaceBody);
    return submit(c, b.videoUrl ? 'talking-face' : 'talking-image', { ...b });
  });
  app.post('/clothes_changer/v1/create_task', async (c) =>
    submit(c, 'tryon-clothes', { ...(await validBody(c, clothesBody)) }),
  );

  // Task history: poll, cancel, delete, list (newest first).
  app.post('/video_tools/v1/poll', async (c) => {
    const { taskId } = await validBody(c, taskIdBody);
    // The task read to check its owner is the one shown: one read per poll.
    const task = await system.tasks.get(c.get('user').id, taskId);
    return c.json(ok(taskView(task, (await mediaByTask(db, [taskId])).get(taskId) ?? [], system.media)));
  });
  app.post('/video_tools/v1/cancel', async (c) => {
    const { taskId } = await validBody(c, taskIdBody);
    await system.tasks.cancel(c.get('user').id, taskId);
    system.queue.abort(taskId);
    return c.json(ok(await view(taskId)));
  });
  app.post('/video_tools/v1/delete', async (c) => {
    const { taskId } = await validBody(c, taskIdBody);
    system.queue.abort(taskId);
    await system.tasks.remove(c.get('user').id, taskId);
    return c.json(ok(null));
  });
  app.post('/video_tools/v1/get_list', async (c) => {
    const { page, pageSize, feature, features, q } = await validBody(c, listBody);
    const { rows, total } = await listTasks(db, c.get('user').id, {
      page,
      pageSize,
      features: [...(feature ? [feature] : []), ...(features ?? [])],
      q,
    });
    const media = await mediaByTask(
      db,
      rows.map((r) => r.id),
    );
    return c.json(
      ok({ list: rows.map((r) => taskView(r, media.get(r.id) ?? [], system.media)), total, page, pageSize }),
    );
  });

  // The same feature and inputs again, as a new task (the history's "Run again").
  app.post('/video_tools/v1/rerun', async (c) => {
    const { taskId } = await validBody(c, taskIdBody);
    const task = await rerunTask(
      { db, media: system.media, tasks: system.tasks, publicUrl: deps.config.publicUrl },
      c.get('user').id,
      taskId,
    );
    return c.json(envelope(0, MESSAGES.submitSuccessfully, await view(task.id)));
  });

  // SPEC.md §3 sample models.
  app.get('/vih_model/v1/model_list', (c) => c.json(ok({ list: SAMPLE_MODELS })));

  // Standard Webhooks signing secret for callbackUrl deliveries.
  app.post('/account/v1/webhook_secret', async (c) => {
    const { rotate } = await validBody(c, rotateBody);
    return c.json(ok({ secret: await webhookSecret(db, c.get('user').id, rotate) }));
  });

  return app;
}
