// ElevenLabs adapter contract for video translation against a local stand-in for its dubbing API: every job status,
// voice only, lip sync, failures, timeouts, deletes, malformed answers.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createUser, waitForTask, type TasksTestApp, type TestUser } from '../../test-support/tasks';
import { submitTool, uploadMedia } from '../../test-support/customer-calls';
import { expectFailedAndRefunded, taskMedia } from '../../test-support/task-outcomes';
import { expectCharged } from '../../test-support/ledger';
import { probeMedia } from '../../media/probe';
import type { LipSync, MediaBytes } from '../types';
import { elevenLabsEngine } from './elevenlabs';
import { ownerDeletes, providerCosts } from './adapter-tasks.fixtures';
import { capturedLog, KEY, price, TEXT, useElevenLabsFake } from './elevenlabs.fixtures';

const el = useElevenLabsFake();
const { media, app, openApp, posts } = el;

/** A new user with 100 credits submits a voice-only translation of the fixture video; answers the user and task id. */
async function translateAsNewUser(t: TasksTestApp, targetLanguage: string) {
  const user = await createUser(t, 100);
  const videoUrl = await uploadMedia(t, user, media.source);
  const id = await submitTool(t, user.apiKey, 'video_translate/2.0', {
    videoUrl,
    targetLanguage,
    enableLipSync: false,
  });
  return { user, id };
}

describe('ElevenLabs video translation against a fake ElevenLabs API', () => {
  it('video translate (voice only) uploads the video with its languages, waits through queued, preparing and dubbing with progress, stores the dubbed MP4 and charges per real second', async () => {
    el.fake.mode = 'gated';
    const t = await app();
    const user = await createUser(t, 100);
    const videoUrl = await uploadMedia(t, user, media.source);
    const id = await submitTool(t, user.apiKey, 'video_translate/2.0', {
      videoUrl,
      sourceLanguage: 'en-US',
      targetLanguage: 'es',
      enableLipSync: false,
    });
    await expect
      .poll(
        async () =>
          (await t.database.db.selectFrom('tasks').select('progress').where('id', '=', id).executeTakeFirstOrThrow())
            .progress,
        {
          timeout: 10_000,
        },
      )
      .toBeGreaterThanOrEqual(10);
    el.fake.release();
    const task = await waitForTask(t, id);
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(posts('/v1/dubbing')[0]!.form).toMatchObject({
      target_lang: 'es',
      source_lang: 'en',
      num_speakers: '0',
      file: { type: 'video/mp4', size: readFileSync(media.source).length },
    });
    expect(el.fake.statuses('dub1')).toEqual(['queued', 'preparing', 'dubbing', 'dubbed']);
    expect(el.fake.calls.some((c) => c.method === 'GET' && c.path === '/v1/dubbing/dub1/audio/es')).toBe(true);
    expect(el.fake.calls.some((c) => c.method === 'DELETE')).toBe(false);
    const stored = await taskMedia(t, task.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ kind: 'video', mime: 'video/mp4', size: readFileSync(media.dubbed).length });
    const seconds = (await probeMedia(readFileSync(media.dubbed)))!.durationS!;
    expect(task.credits_charged).toBe(price('video-translate-voice-only', { seconds }));
    expect(task.credits_charged).toBeGreaterThan(price('video-translate-voice-only', { seconds: 1 }));
    await expectCharged(t, user, task.credits_charged!);
  });

  it('video translate with lip sync hands the source video and the dubbed soundtrack to the lip-sync model and stores its video', async () => {
    const given: Array<{ video: MediaBytes; audio: MediaBytes }> = [];
    const lipSync: LipSync = async (video, audio) => {
      given.push({ video, audio });
      const data = readFileSync(media.synced);
      return {
        kind: 'video',
        mime: 'video/mp4',
        data,
        durationS: null,
        providerCost: { provider: 'fal', amount: 1, unit: 'fal-billing-units', usd: null, estimated: false },
      };
    };
    // Built here with its lip-sync model; no ELEVENLABS_API_KEY so the registry holds this engine alone under the name.
    const engine = elevenLabsEngine({ key: KEY, baseUrl: el.fake.url, lipSync });
    expect(engine.features).toContain('video-translate-lip-sync');
    const t = await openApp({ engines: [engine], env: { ENGINES: 'video-translate-lip-sync=elevenlabs' } });
    const user = await createUser(t, 100);
    const videoUrl = await uploadMedia(t, user, media.source);
    const task = await waitForTask(
      t,
      await submitTool(t, user.apiKey, 'video_translate/2.0', { videoUrl, targetLanguage: 'fr' }),
    );
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(posts('/v1/dubbing')[0]!.form).toMatchObject({ target_lang: 'fr', source_lang: 'auto' });
    expect(el.fake.statuses('dub1')).toEqual(['queued', 'preparing', 'dubbing', 'dubbed']);
    expect(given).toHaveLength(1);
    expect(given[0]!.video.data.equals(readFileSync(media.source))).toBe(true);
    const soundtrack = (await probeMedia(given[0]!.audio.data))!;
    expect(given[0]!.audio.mime).toBe('audio/wav');
    expect(soundtrack).toMatchObject({ kind: 'audio', mime: 'audio/wav' });
    expect(soundtrack.durationS!).toBeCloseTo((await probeMedia(readFileSync(media.dubbed)))!.durationS!, 0);
    const stored = await taskMedia(t, task.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ kind: 'video', size: readFileSync(media.synced).length });
    const seconds = (await probeMedia(readFileSync(media.synced)))!.durationS!;
    expect(task.credits_charged).toBe(price('video-translate-lip-sync', { seconds }));
    await expectCharged(t, user, task.credits_charged!);
    // Two billing calls: the dub (no cost reported: its length at the published price per minute) and the lip sync.
    // toMatchObject on an array: the same two rows, in order, with these fields.
    expect(await providerCosts(t, task.id)).toMatchObject([
      { provider: 'elevenlabs', unit: 'media-seconds', estimated: 1 },
      { provider: 'fal', unit: 'fal-billing-units', estimated: 0 },
    ]);
  });

  it('without a lip-sync model, lip-synced translation is not offered, so configuring it fails at start', async () => {
    expect(elevenLabsEngine({ key: KEY, baseUrl: el.fake.url, lipSync: null }).features).not.toContain(
      'video-translate-lip-sync',
    );
    await expect(app({ ENGINES: 'video-translate-lip-sync=elevenlabs' })).rejects.toThrow(
      'cannot serve video-translate-lip-sync',
    );
  });

  it('a dubbing job that ends failed fails the task with ElevenLabs reason, refunded', async () => {
    el.fake.mode = 'fail';
    const t = await app();
    const { user, id } = await translateAsNewUser(t, 'de');
    await expectFailedAndRefunded(t, user, id, 'ElevenLabs could not dub the video: No speech was found in the video');
    expect(el.fake.statuses('dub1')).toEqual(['queued', 'failed']);
    await expect
      .poll(() => el.fake.calls.some((c) => c.method === 'DELETE' && c.path === '/v1/dubbing/dub1'))
      .toBe(true);
  });

  it('a dubbing status ElevenLabs adds later is waited through, not failed; the operator hears of it once', async () => {
    el.fake.mode = 'new-status';
    const log = capturedLog();
    const engine = elevenLabsEngine({ key: KEY, baseUrl: el.fake.url, lipSync: null, log });
    const t = await openApp({ engines: [engine], env: { ENGINES: 'video-translate-voice-only=elevenlabs' } });
    const task = await waitForTask(t, (await translateAsNewUser(t, 'es')).id);
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(el.fake.statuses('dub1')).toEqual(['rendering', 'rendering', 'dubbed']);
    expect(log.lines.filter((l) => l.fields?.status === 'rendering')).toHaveLength(1);
    expect(el.fake.calls.some((c) => c.method === 'DELETE')).toBe(false);
  });

  it("a target language ElevenLabs refuses (422) fails as the input's fault naming the field, refunded, with nothing to delete", async () => {
    const t = await app();
    const { user, id } = await translateAsNewUser(t, 'Klingon');
    const task = await expectFailedAndRefunded(
      t,
      user,
      id,
      'ElevenLabs refused the input: targetLanguage: Unsupported target language: klingon',
    );
    expect(task.error).not.toContain('{');
    expect(posts('/v1/dubbing')).toHaveLength(1);
    expect(el.fake.calls.some((c) => c.method === 'DELETE')).toBe(false);
  });

  it('a dubbing past the engine timeout is deleted at ElevenLabs, failed and refunded', async () => {
    el.fake.mode = 'hang';
    const t = await app({ ENGINE_TIMEOUTS_MS: 'elevenlabs=1500' });
    const { user, id } = await translateAsNewUser(t, 'de');
    await expectFailedAndRefunded(t, user, id, 'timed out');
    await expect
      .poll(() => el.fake.calls.some((c) => c.method === 'DELETE' && c.path === '/v1/dubbing/dub1'))
      .toBe(true);
  });

  it('a translation its owner deletes while dubbing is deleted at ElevenLabs and refunded', async () => {
    el.fake.mode = 'hang';
    const t = await app();
    const { user, id } = await translateAsNewUser(t, 'de');
    await expect
      .poll(() => el.fake.calls.some((c) => c.method === 'GET' && c.path === '/v1/dubbing/dub1'), { timeout: 10_000 })
      .toBe(true);
    await ownerDeletes(t, user, id);
    await expect
      .poll(() => el.fake.calls.some((c) => c.method === 'DELETE' && c.path === '/v1/dubbing/dub1'), { timeout: 5000 })
      .toBe(true);
    const credits = await expectCharged(t, user, 0);
    expect(credits.ledger.some((r) => r.reason === 'task-refund' && r.reference === id)).toBe(true);
    expect(await taskMedia(t, id)).toHaveLength(0);
  });

  it('malformed answers (HTML instead of audio or JSON, a clone with no voice_id) fail the task clearly, refunded', async () => {
    el.fake.mode = 'malformed';
    const t = await app();
    // One user per case, so each ledger holds that task alone; a voice clone is free and holds nothing.
    const cases: Array<[string, (user: TestUser) => Promise<Record<string, unknown>>, string]> = [
      ['do_tts_common', async () => ({ text: TEXT }), 'sent a malformed answer: expected audio, got text/html'],
      [
        'voice_clone',
        async (user) => ({ voiceUrl: await uploadMedia(t, user, media.speech) }),
        'sent a malformed answer: no voice_id',
      ],
      [
        'video_translate/2.0',
        async (user) => ({
          videoUrl: await uploadMedia(t, user, media.source),
          targetLanguage: 'es',
          enableLipSync: false,
        }),
        'sent a malformed answer: <html>',
      ],
      [
        'do_stt',
        async (user) => ({ audioUrl: await uploadMedia(t, user, media.speech) }),
        'sent a malformed answer: <html>',
      ],
    ];
    for (const [tool, body, reason] of cases) {
      const user = await createUser(t, 100);
      await expectFailedAndRefunded(
        t,
        user,
        await submitTool(t, user.apiKey, tool, await body(user)),
        `ElevenLabs ${reason}`,
        {
          free: tool === 'voice_clone',
        },
      );
    }
  });
});
