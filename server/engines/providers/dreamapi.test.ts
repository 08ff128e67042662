// DreamAPI upstream contract against a local fake of DreamAPI: submits with the Bearer key, progress, the three-step
// upload, each tool's mapping and outputs; task and ledger end right.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createUser, waitForTask } from '../../test-support/tasks';
import { asyncResult, postPlayground, submitTool, uploadMedia } from '../../test-support/customer-calls';
import { taskMedia } from '../../test-support/task-outcomes';
import { expectCharged } from '../../test-support/ledger';
import { listPrice } from '../../../src/lib/product-rules';
import { DREAMAPI_TTS_AUDIO_IDS } from './dreamapi-constants';
import { providerCosts } from './adapter-tasks.fixtures';
import { KEY, WAN_480, useDreamApiFake } from './dreamapi.fixtures';

const dream = useDreamApiFake();
const {
  media: { clip, result2s, voice },
  app,
  submitWan,
  submits,
  pollsOf,
} = dream;

describe('DreamAPI upstream adapter against a fake DreamAPI', { timeout: 30_000 }, () => {
  it('a job is submitted with the Bearer key, reported as progress while upstream status is 2, and its video stored locally, charged once', async () => {
    dream.fake.mode = 'hang';
    const t = await app();
    const user = await createUser(t, 100);
    const running = await submitWan(t, user);
    await expect
      .poll(
        async () =>
          await t.database.db
            .selectFrom('tasks')
            .select(['status', 'progress'])
            .where('id', '=', running)
            .executeTakeFirstOrThrow(),
        {
          timeout: 5000,
        },
      )
      .toEqual({ status: 'running', progress: 50 });
    // Stop the hanging job (canceled and refunded) before the one that finishes.
    await postPlayground(t, user, 'video_tools/v1/cancel', { taskId: running });
    expect((await waitForTask(t, running)).status).toBe('canceled');

    dream.fake.mode = 'ok';
    const task = await waitForTask(t, await submitWan(t, user));
    expect(task.status, task.error ?? '').toBe('succeeded');
    const call = submits('wan/text_to_video/2.1').at(-1)!;
    expect(call.auth).toBe(`Bearer ${KEY}`);
    expect(call.body).toEqual({ prompt: 'a fox in snow', resolution: '480p' });
    expect(pollsOf('up-2')).toBe(2);
    const media = await taskMedia(t, task.id);
    expect(media).toHaveLength(1);
    expect(media[0]).toMatchObject({
      kind: 'video',
      mime: 'video/mp4',
      size: readFileSync(result2s).length,
      duration_ms: 2000,
    });
    expect(task.credits_charged).toBe(WAN_480);
    await expectCharged(t, user, WAN_480);
    // The credits DreamAPI reported on its task; it publishes no dollar price of a credit.
    expect(await providerCosts(t, task.id)).toEqual([
      { provider: 'dreamapi', amount: 15, unit: 'dreamapi-credits', usd: null, estimated: 0 },
    ]);
  });

  it('text to speech sends the voice language (with the documented English audioId), not our voice id, and is charged by characters', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const text = 'Hello from the upstream voice';
    const task = await waitForTask(
      t,
      await submitTool(t, user.apiKey, 'do_tts_common', { text, audioId: 'en-gb-male-1' }),
    );
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(submits('do_tts_common')[0]!.body).toEqual({
      audioId: DREAMAPI_TTS_AUDIO_IDS['tts-common'].en,
      text,
      lan: 'en',
    });
    const media = await taskMedia(t, task.id);
    expect(media).toHaveLength(1);
    expect(media[0]).toMatchObject({ kind: 'audio', mime: 'audio/wav', duration_ms: 1000 });
    const price = listPrice('tts-common', { characters: text.length }).credits;
    expect(task.credits_charged).toBe(price);
    await expectCharged(t, user, price);
    // No credits on its task: DreamAPI's published price of the same text, marked estimated.
    expect(await providerCosts(t, task.id)).toEqual([
      { provider: 'dreamapi', amount: price, unit: 'dreamapi-credits', usd: null, estimated: 1 },
    ]);
  });

  it('our own media go through the three-step upload, the tool receives the upstream URLs, and lip sync is settled per real second of the result', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const [srcVideoUrl, audioUrl] = [await uploadMedia(t, user, clip), await uploadMedia(t, user, voice)];
    const id = await submitTool(t, user.apiKey, 'lipsync', { srcVideoUrl, audioUrl });
    const task = await waitForTask(t, id);
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(dream.fake.calls.filter((c) => c.path === '/api/file/v1/get_policy').map((c) => c.body)).toEqual([
      { scene: 'Dream-CN' },
      { scene: 'Dream-CN' },
    ]);
    expect(dream.fake.uploads.map((u) => u.data)).toEqual([readFileSync(clip), readFileSync(voice)]);
    expect(dream.fake.uploads.map((u) => u.key)).toEqual([`tmp/dream/${id}-0.mp4`, `tmp/dream/${id}-1.wav`]);
    // The storage host gets the policy's form fields and never our Bearer key.
    expect(
      dream.fake.uploads.every(
        (u) =>
          u.auth === undefined &&
          u.fields.policy === 'eyJleHBpcmF0aW9uIjoi' &&
          u.fields.callback === 'eyJjYWxsYmFja1VybCI6' &&
          u.fields.success_action_status === '200',
      ),
    ).toBe(true);
    expect(dream.fake.calls.filter((c) => c.path === '/api/file/v1/policy_upload_finish').map((c) => c.body)).toEqual([
      { reqId: 'req-1' },
      { reqId: 'req-2' },
    ]);
    const sent = submits('lipsync')[0]!.body;
    expect(sent).toEqual({
      srcVideoUrl: `${dream.fake.url}/files/${dream.fake.uploads[0]!.key}?x-oss-expires=86399&x-oss-signature=abc`,
      audioUrl: `${dream.fake.url}/files/${dream.fake.uploads[1]!.key}?x-oss-expires=86399&x-oss-signature=abc`,
      videoParams: { video_width: 0, video_height: 0, video_enhance: 0 },
    });
    const media = await taskMedia(t, id);
    expect(media).toHaveLength(1);
    expect(media[0]!.duration_ms).toBe(2000);
    // The hold was quoted on the 1 s input audio; the settle is on the 2 s video DreamAPI returned.
    expect(task.credits_charged).toBe(listPrice('lipsync', { seconds: 2 }).credits);
    await expectCharged(t, user, task.credits_charged!);
  });

  it('video translation goes to video_translate/2.0 with enableLipSync from the feature and language codes as DreamAPI spells them', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const videoUrl = await uploadMedia(t, user, clip);
    const task = await waitForTask(
      t,
      await submitTool(t, user.apiKey, 'video_translate/2.0', {
        videoUrl,
        sourceLanguage: 'en-US',
        targetLanguage: 'es',
        enableLipSync: false,
      }),
    );
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(task.feature).toBe('video-translate-voice-only');
    expect(submits('video_translate/2.0')[0]!.body).toEqual({
      videoUrl: expect.stringContaining(`/files/${dream.fake.uploads[0]!.key}`),
      sourceLanguage: 'en',
      targetLanguage: 'es',
      enableLipSync: false,
    });
    expect(task.credits_charged).toBe(listPrice('video-translate-voice-only', { seconds: 2 }).credits);
    expect(await taskMedia(t, task.id)).toHaveLength(1);
    await expectCharged(t, user, task.credits_charged!);
  });

  it('voice_clone passes the upstream cloneId through, and do_tts_clone sends that cloneId back upstream', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const cloneTask = await waitForTask(
      t,
      await submitTool(t, user.apiKey, 'voice_clone', { voiceUrl: await uploadMedia(t, user, voice) }),
    );
    expect(cloneTask.status, cloneTask.error ?? '').toBe('succeeded');
    const { cloneId } = await asyncResult<{ cloneId: string }>(t, user.apiKey, cloneTask.id);
    expect(cloneId).toBe('clone-40dc8e22');
    expect(submits('voice_clone')[0]!.body.voiceUrl).toContain(`/files/${dream.fake.uploads[0]!.key}`);
    expect(await taskMedia(t, cloneTask.id)).toHaveLength(0);

    const ttsTask = await waitForTask(
      t,
      await submitTool(t, user.apiKey, 'do_tts_clone', { cloneId, text: 'In my own voice', lan: 'en-US' }),
    );
    expect(ttsTask.status, ttsTask.error ?? '').toBe('succeeded');
    expect(submits('do_tts_clone')[0]!.body).toEqual({ cloneId: 'clone-40dc8e22', text: 'In my own voice', lan: 'en' });
    const price = listPrice('tts-clone', { characters: 'In my own voice'.length }).credits;
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
    const task = await waitForTask(
      t,
      await submitTool(t, user.apiKey, 'do_stt_pro', { audioUrl: `${dream.fake.url}/out/voice.wav` }),
    );
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(task.credits_held).toBe(2);
    expect(task.credits_charged).toBe(listPrice('stt-pro', { seconds: 1 }).credits);
    expect(task.credits_charged).toBe(2);
    await expectCharged(t, user, 2);
  });
});
