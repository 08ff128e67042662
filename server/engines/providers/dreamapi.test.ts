// DreamAPI upstream contract: a local fake of DreamAPI (Bearer, /api/async/<tool>, getAsyncResult, three-step upload); task and ledger end right.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, creditState, waitForTask, type TasksTestApp, type TestUser } from '../../test-support/tasks';
import { asyncResult, expectCharged, expectChargedOnce, expectFailedAndRefunded, listenLocal, postPlayground, readBody, sendFile, sendJson, sendProxyErrorPage, sineAudio, stillImage, submitTool, taskMedia, videoClip, uploadMedia, useTestMedia, useTestApps, withMode, type LocalServer } from '../../test-support/provider-fakes';
import { estimateCredits } from '../../tasks';
import { DREAMAPI_TTS_AUDIO_IDS } from '../../../src/lib/spec/dreamapi-upstream';

/** How the fake's next job behaves. */
type Mode = 'ok' | 'fail' | 'hang' | 'html' | 'no-task-id' | 'no-output' | 'rate-limited' | 'illegal';

interface Call {
  path: string;
  auth: string | undefined;
  body: Record<string, unknown>;
}

interface Job {
  tool: string;
  mode: Mode;
  polls: number;
}

/** The fake: records every call, every storage upload and every job with its polls. */
interface Fake extends LocalServer {
  mode: Mode;
  calls: Call[];
  uploads: Array<{ key: string; fields: Record<string, string>; data: Buffer; auth: string | undefined }>;
  jobs: Map<string, Job>;
}

const KEY = 'test-key';
const { clip, result2s, voice, picture } = useTestMedia('dreamapi-test-', {
  clip: videoClip('clip.mp4', 1),
  result2s: videoClip('result-2s.mp4', 2),
  voice: sineAudio('voice.wav', 1),
  picture: stillImage('picture.png', 'color=c=teal:s=64x64'),
});
let fake: Fake;

/** What a finished job of each tool answers (DreamAPI polling docs: images, videos, audios, cloneId, stt results). */
function outputsOf(tool: string, base: string): Record<string, unknown> {
  if (tool.startsWith('do_tts')) return { audios: [{ audioUrl: `${base}/out/voice.wav`, audioType: '.wav' }] };
  if (tool === 'voice_clone') return { cloneId: 'clone-40dc8e22' };
  if (tool === 'do_stt') return { sttResult: { data: [{ bg: 0, ed: 900, text: 'Today is ' }, { bg: 900, ed: 1500, text: 'a beautiful day.' }] } };
  if (tool === 'do_stt_pro') return { sttProResult: { text: 'Today is a beautiful day.' } };
  if (tool === 'tryon_clothes') return { images: [{ imageUrl: `${base}/out/picture.png`, imageType: 'png' }] };
  return { videos: [{ videoUrl: `${base}/out/result-2s.mp4`, videoType: 'mp4' }] };
}

/** getAsyncResult: status 2 on the first poll, then the job's outcome. */
function poll(job: Job, taskId: string, base: string): Record<string, unknown> {
  job.polls++;
  const task = { taskId, taskType: job.tool, reason: '' };
  if (job.mode === 'hang' || job.polls === 1) return { task: { ...task, status: 2 } };
  if (job.mode === 'fail') return { task: { ...task, status: 4, reason: 'no face was detected in the image', errorCode: 60011 } };
  if (job.mode === 'no-output') return { task: { ...task, status: 3 } };
  return { task: { ...task, status: 3, executionTime: 1200 }, ...outputsOf(job.tool, base) };
}

async function startFake(): Promise<Fake> {
  const state = { mode: 'ok' as Mode, calls: [] as Call[], uploads: [] as Fake['uploads'], jobs: new Map<string, Job>(), policies: 0, rateLimited: 0 };
  const local = await listenLocal(async (req, res, base) => {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) => sendJson(res, status, value, headers);
    const ok = (data: unknown) => send(200, { code: 0, message: 'success', data });
    // The storage host: a form POST authorised by the policy's signature (no Bearer key), then public GETs.
    if (req.method === 'POST' && url.pathname === '/oss') {
      const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
      const fields = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string')) as Record<string, string>;
      const blob = form.get('file');
      if (fields.signature !== 'sig-1' || fields.OSSAccessKeyId !== 'LTAI-test' || !(blob instanceof Blob)) return send(403, '<Error><Code>AccessDenied</Code></Error>');
      state.uploads.push({ key: fields.key!, fields, data: Buffer.from(await blob.arrayBuffer()), auth: req.headers.authorization });
      return ok({ reqId: `req-${state.uploads.length}` });
    }
    if (req.method === 'GET' && url.pathname.startsWith('/files/')) {
      const up = state.uploads.find((u) => `/files/${u.key}` === url.pathname);
      return up ? (res.writeHead(200), res.end(up.data)) : send(404, 'missing');
    }
    if (req.method === 'GET' && url.pathname === '/out/result-2s.mp4') return sendFile(res, result2s, 'video/mp4');
    if (req.method === 'GET' && url.pathname === '/out/voice.wav') return sendFile(res, voice, 'audio/wav');
    if (req.method === 'GET' && url.pathname === '/out/picture.png') return sendFile(res, picture, 'image/png');

    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
    } catch {
      /* recorded as empty */
    }
    state.calls.push({ path: url.pathname, auth: req.headers.authorization, body });
    if (req.headers.authorization !== `Bearer ${KEY}`) return send(401, { code: 40001, message: 'Invalid API key', data: null });
    if (req.method !== 'POST') return send(405, { code: 40005, message: 'POST only', data: null });

    if (url.pathname === '/api/file/v1/get_policy') {
      state.policies++;
      return ok({ accessId: 'LTAI-test', policy: 'eyJleHBpcmF0aW9uIjoi', signature: 'sig-1', dir: 'tmp/dream/', host: `${base}/oss`, expire: '1800', callback: 'eyJjYWxsYmFja1VybCI6', reqId: `policy-${state.policies}` });
    }
    if (url.pathname === '/api/file/v1/policy_upload_finish') {
      const n = Number(String(body.reqId).replace('req-', ''));
      const up = state.uploads[n - 1];
      if (!up) return send(200, { code: 10404, message: 'upload not found', data: null });
      return ok({ url: `${base}/files/${up.key}?x-oss-expires=86399&x-oss-signature=abc`, expireAt: '2030-01-01 00:00:00', reqId: body.reqId });
    }
    if (url.pathname === '/api/getAsyncResult') {
      const job = state.jobs.get(String(body.taskId));
      if (!job) return send(200, { code: 10404, message: 'task not found', data: null });
      return ok(poll(job, String(body.taskId), base));
    }
    if (url.pathname.startsWith('/api/async/')) {
      if (state.mode === 'html') return sendProxyErrorPage(res);
      if (state.mode === 'rate-limited' && state.rateLimited++ === 0) return send(429, { code: 40029, message: 'Too many requests', data: null }, { 'retry-after': '1' });
      if (state.mode === 'illegal') return send(200, { code: 10192, message: 'Illegal parameter: prompt contains forbidden words', data: null });
      if (state.mode === 'no-task-id') return ok({});
      const taskId = `up-${state.jobs.size + 1}`;
      state.jobs.set(taskId, { tool: url.pathname.slice('/api/async/'.length), mode: state.mode, polls: 0 });
      return ok({ taskId });
    }
    send(404, { code: 40004, message: 'not found', data: null });
  });
  return withMode({ ...local, calls: state.calls, uploads: state.uploads, jobs: state.jobs }, state, () => {
    state.rateLimited = 0;
  });
}

beforeAll(async () => {
  fake = await startFake();
});
afterAll(() => fake.close());

const openApp = useTestApps(() => {
  fake.calls.length = 0;
  fake.uploads.length = 0;
  fake.jobs.clear();
  fake.mode = 'ok';
});

const ALL = 'tts-common=dreamapi,video-translate-voice-only=dreamapi,voice-clone=dreamapi,tts-clone=dreamapi,lipsync=dreamapi,wan-text-to-video=dreamapi,character-to-video=dreamapi,stt-common=dreamapi,stt-pro=dreamapi';

async function app(extra: Record<string, string> = {}) {
  return openApp({ env: { DREAMAPI_KEY: KEY, DREAMAPI_BASE_URL: fake.url, ENGINES: ALL, ...extra } });
}

const submitWan = (t: TasksTestApp, user: TestUser) => submitTool(t, user.apiKey, 'wan/text_to_video/2.1', { prompt: 'a fox in snow', resolution: '480p' });

const submits = (tool: string) => fake.calls.filter((c) => c.path === `/api/async/${tool}`);
const pollsOf = (upstreamId: string) => fake.jobs.get(upstreamId)?.polls ?? 0;
const WAN_480 = estimateCredits('wan-text-to-video', { resolution: '480p' }).credits;

describe('DreamAPI upstream adapter against a fake DreamAPI', { timeout: 30_000 }, () => {
  it('a job is submitted with the Bearer key, reported as progress while upstream status is 2, and its video stored locally, charged once', async () => {
    fake.mode = 'hang';
    const t = await app();
    const user = await createUser(t, 100);
    const running = await submitWan(t, user);
    await expect.poll(async () => (await t.database.db.selectFrom('tasks').select(['status', 'progress']).where('id', '=', running).executeTakeFirstOrThrow()), { timeout: 5000 }).toEqual({ status: 'running', progress: 50 });
    // Stop the hanging job (canceled and refunded) before the one that finishes.
    await postPlayground(t, user, 'video_tools/v1/cancel', { taskId: running });
    expect((await waitForTask(t, running)).status).toBe('canceled');

    fake.mode = 'ok';
    const task = await waitForTask(t, await submitWan(t, user));
    expect(task.status, task.error ?? '').toBe('succeeded');
    const call = submits('wan/text_to_video/2.1').at(-1)!;
    expect(call.auth).toBe(`Bearer ${KEY}`);
    expect(call.body).toEqual({ prompt: 'a fox in snow', resolution: '480p' });
    expect(pollsOf('up-2')).toBe(2);
    const media = await taskMedia(t, task.id);
    expect(media).toHaveLength(1);
    expect(media[0]).toMatchObject({ kind: 'video', mime: 'video/mp4', size: readFileSync(result2s).length, duration_ms: 2000 });
    expect(task.credits_charged).toBe(WAN_480);
    await expectCharged(t, user, WAN_480);
  });

  it('text to speech sends the voice language (with the documented English audioId), not our voice id, and is charged by characters', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const text = 'Hello from the upstream voice';
    const task = await waitForTask(t, await submitTool(t, user.apiKey, 'do_tts_common', { text, audioId: 'en-gb-male-1' }));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(submits('do_tts_common')[0]!.body).toEqual({ audioId: DREAMAPI_TTS_AUDIO_IDS['tts-common'].en, text, lan: 'en' });
    const media = await taskMedia(t, task.id);
    expect(media).toHaveLength(1);
    expect(media[0]).toMatchObject({ kind: 'audio', mime: 'audio/wav', duration_ms: 1000 });
    const price = estimateCredits('tts-common', { characters: text.length }).credits;
    expect(task.credits_charged).toBe(price);
    await expectCharged(t, user, price);
  });

  it('our own media go through the three-step upload, the tool receives the upstream URLs, and lip sync is settled per real second of the result', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const [srcVideoUrl, audioUrl] = [await uploadMedia(t, user, clip), await uploadMedia(t, user, voice)];
    const id = await submitTool(t, user.apiKey, 'lipsync', { srcVideoUrl, audioUrl });
    const task = await waitForTask(t, id);
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(fake.calls.filter((c) => c.path === '/api/file/v1/get_policy').map((c) => c.body)).toEqual([{ scene: 'Dream-CN' }, { scene: 'Dream-CN' }]);
    expect(fake.uploads.map((u) => u.data)).toEqual([readFileSync(clip), readFileSync(voice)]);
    expect(fake.uploads.map((u) => u.key)).toEqual([`tmp/dream/${id}-0.mp4`, `tmp/dream/${id}-1.wav`]);
    // The storage host gets the policy's form fields and never our Bearer key.
    expect(fake.uploads.every((u) => u.auth === undefined && u.fields.policy === 'eyJleHBpcmF0aW9uIjoi' && u.fields.callback === 'eyJjYWxsYmFja1VybCI6' && u.fields.success_action_status === '200')).toBe(true);
    expect(fake.calls.filter((c) => c.path === '/api/file/v1/policy_upload_finish').map((c) => c.body)).toEqual([{ reqId: 'req-1' }, { reqId: 'req-2' }]);
    const sent = submits('lipsync')[0]!.body;
    expect(sent).toEqual({
      srcVideoUrl: `${fake.url}/files/${fake.uploads[0]!.key}?x-oss-expires=86399&x-oss-signature=abc`,
      audioUrl: `${fake.url}/files/${fake.uploads[1]!.key}?x-oss-expires=86399&x-oss-signature=abc`,
      videoParams: { video_width: 0, video_height: 0, video_enhance: 0 },
    });
    const media = await taskMedia(t, id);
    expect(media).toHaveLength(1);
    expect(media[0]!.duration_ms).toBe(2000);
    // The hold was quoted on the 1 s input audio; the settle is on the 2 s video DreamAPI returned.
    expect(task.credits_charged).toBe(estimateCredits('lipsync', { seconds: 2 }).credits);
    await expectCharged(t, user, task.credits_charged!);
  });

  it('video translation goes to video_translate/2.0 with enableLipSync from the feature and language codes as DreamAPI spells them', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const videoUrl = await uploadMedia(t, user, clip);
    const task = await waitForTask(t, await submitTool(t, user.apiKey, 'video_translate/2.0', { videoUrl, sourceLanguage: 'en-US', targetLanguage: 'es', enableLipSync: false }));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(task.feature).toBe('video-translate-voice-only');
    expect(submits('video_translate/2.0')[0]!.body).toEqual({ videoUrl: expect.stringContaining(`/files/${fake.uploads[0]!.key}`), sourceLanguage: 'en', targetLanguage: 'es', enableLipSync: false });
    expect(task.credits_charged).toBe(estimateCredits('video-translate-voice-only', { seconds: 2 }).credits);
    expect(await taskMedia(t, task.id)).toHaveLength(1);
    await expectCharged(t, user, task.credits_charged!);
  });

  it('voice_clone passes the upstream cloneId through, and do_tts_clone sends that cloneId back upstream', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const cloneTask = await waitForTask(t, await submitTool(t, user.apiKey, 'voice_clone', { voiceUrl: await uploadMedia(t, user, voice) }));
    expect(cloneTask.status, cloneTask.error ?? '').toBe('succeeded');
    const { cloneId } = await asyncResult<{ cloneId: string }>(t, user.apiKey, cloneTask.id);
    expect(cloneId).toBe('clone-40dc8e22');
    expect(submits('voice_clone')[0]!.body.voiceUrl).toContain(`/files/${fake.uploads[0]!.key}`);
    expect(await taskMedia(t, cloneTask.id)).toHaveLength(0);

    const ttsTask = await waitForTask(t, await submitTool(t, user.apiKey, 'do_tts_clone', { cloneId, text: 'In my own voice', lan: 'en-US' }));
    expect(ttsTask.status, ttsTask.error ?? '').toBe('succeeded');
    expect(submits('do_tts_clone')[0]!.body).toEqual({ cloneId: 'clone-40dc8e22', text: 'In my own voice', lan: 'en' });
    const price = estimateCredits('tts-clone', { characters: 'In my own voice'.length }).credits;
    await expectCharged(t, user, price);
  });

  it('speech to text keeps the transcript: do_stt segments joined, do_stt_pro with its locale list', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const audioUrl = await uploadMedia(t, user, voice);
    const common = await waitForTask(t, await submitTool(t, user.apiKey, 'do_stt', { audioUrl }));
    const pro = await waitForTask(t, await submitTool(t, user.apiKey, 'do_stt_pro', { audioUrl, lan: 'fr' }));
    expect([common.status, pro.status]).toEqual(['succeeded', 'succeeded']);
    expect(JSON.parse(common.output!)).toMatchObject({ text: 'Today is a beautiful day.' });
    expect(JSON.parse(pro.output!)).toMatchObject({ text: 'Today is a beautiful day.' });
    expect(submits('do_stt_pro')[0]!.body.lan).toEqual(['fr-FR']);
    await expectCharged(t, user, common.credits_charged! + pro.credits_charged!);
  });

  it('speech to text of an outside audio is held on the length measured at submit and charged per started minute of the audio read', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitTool(t, user.apiKey, 'do_stt_pro', { audioUrl: `${fake.url}/out/voice.wav` }));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(task.credits_held).toBe(2);
    expect(task.credits_charged).toBe(estimateCredits('stt-pro', { seconds: 1 }).credits);
    expect(task.credits_charged).toBe(2);
    await expectCharged(t, user, 2);
  });

  it('a job that ends with status 4 fails the task with the upstream reason and refunds it', async () => {
    fake.mode = 'fail';
    const t = await app();
    const user = await createUser(t, 100);
    const task = await expectFailedAndRefunded(t, user, await submitWan(t, user), 'no face was detected in the image');
    expect(task.error).toContain('code 60011');
    expect(task.error).not.toContain('up-');
  });

  it('a job still at status 2 past the engine deadline fails "timed out" and is refunded', async () => {
    fake.mode = 'hang';
    const t = await app({ ENGINE_TIMEOUTS_MS: 'dreamapi=1500' });
    const user = await createUser(t, 100);
    await expectFailedAndRefunded(t, user, await submitWan(t, user), 'timed out');
  });

  it('a task canceled by its owner is refunded and stops polling DreamAPI (which has no cancel)', async () => {
    fake.mode = 'hang';
    // One dreamapi slot: the next task can only start once the canceled run has returned.
    const t = await app({ ENGINE_CONCURRENCY: 'dreamapi=1' });
    const user = await createUser(t, 100);
    const id = await submitWan(t, user);
    await expect.poll(() => pollsOf('up-1'), { timeout: 5000 }).toBeGreaterThanOrEqual(1);
    const res = await postPlayground(t, user, 'video_tools/v1/delete', { taskId: id });
    expect(res.status).toBe(200);
    await expect.poll(async () => (await creditState(t, user.id)).balance, { timeout: 5000 }).toBe(100);
    await expectCharged(t, user, 0);

    fake.mode = 'ok';
    const next = await waitForTask(t, await submitWan(t, user));
    expect(next.status, next.error ?? '').toBe('succeeded');
    const frozen = pollsOf('up-1');
    await expect.poll(() => pollsOf('up-1'), { timeout: 1500, interval: 300 }).toBe(frozen);
    expect(fake.calls.filter((c) => c.path === '/api/getAsyncResult' && c.body.taskId === 'up-1')).toHaveLength(frozen);
    await expectCharged(t, user, WAN_480);
  });

  it('malformed answers (HTML, no taskId, success without files) fail the task as "malformed answer" and refund it', async () => {
    for (const mode of ['html', 'no-task-id', 'no-output'] as const) {
      fake.mode = mode;
      const t = await app();
      const user = await createUser(t, 100);
      await expectFailedAndRefunded(t, user, await submitWan(t, user), 'malformed answer');
      await t.close();
    }
  });

  it('a 429 with Retry-After is waited out and retried; the task succeeds, charged once', async () => {
    fake.mode = 'rate-limited';
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitWan(t, user));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(submits('wan/text_to_video/2.1')).toHaveLength(2);
    expect(await taskMedia(t, task.id)).toHaveLength(1);
    await expectChargedOnce(t, user, WAN_480);
  });

  it('10192 Illegal parameter fails the task with the upstream message and refunds it, without trying a fallback', async () => {
    fake.mode = 'illegal';
    const t = await app({ ENGINES: 'wan-text-to-video=dreamapi|preview' });
    const user = await createUser(t, 100);
    const task = await expectFailedAndRefunded(t, user, await submitWan(t, user), 'Illegal parameter: prompt contains forbidden words');
    expect(task.engine).toBe('dreamapi');
  });

  it('a refused API key fails the task saying so, refunded', async () => {
    const t = await openApp({ env: { DREAMAPI_KEY: 'wrong-key', DREAMAPI_BASE_URL: fake.url, ENGINES: ALL } });
    const user = await createUser(t, 100);
    await expectFailedAndRefunded(t, user, await submitWan(t, user), 'refused the API key');
  });

  it('character to video with a sample model cannot be served upstream: failed with the reason, refunded, nothing submitted', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const res = await postPlayground(t, user, 'video_tools/v1/animate_video', { type: 'character', prompt: 'waves hello', modelId: 'model-emma' });
    const { data } = (await res.json()) as { data: { taskId: string } };
    await expectFailedAndRefunded(t, user, data.taskId, 'cannot use a sample model');
    expect(fake.calls.filter((c) => c.path.startsWith('/api/async/'))).toHaveLength(0);
  });

  it('a sample model is not the user\'s fault: with the preview engine behind DreamAPI it is drawn there, charged once', async () => {
    const t = await app({ ENGINES: 'character-to-video=dreamapi|preview' });
    const user = await createUser(t, 100);
    const res = await postPlayground(t, user, 'video_tools/v1/animate_video', { type: 'character', prompt: 'waves hello', modelId: 'model-emma', resolution: '512p' });
    const { data } = (await res.json()) as { data: { taskId: string } };
    const task = await waitForTask(t, data.taskId);
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(task.engine).toBe('preview');
    expect(fake.calls.filter((c) => c.path.startsWith('/api/async/'))).toHaveLength(0);
    await expectCharged(t, user, task.credits_charged!);
  });

  it('with a fallback configured, an upstream failing mid-way hands the task to the preview engine: succeeded, charged once', async () => {
    fake.mode = 'fail';
    const t = await app({ ENGINES: 'wan-text-to-video=dreamapi|preview' });
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitWan(t, user));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(task.engine).toBe('preview');
    expect(pollsOf('up-1')).toBe(2);
    expect(await taskMedia(t, task.id)).toHaveLength(1);
    expect(task.credits_charged).toBe(WAN_480);
    await expectChargedOnce(t, user, WAN_480);
  });
});
