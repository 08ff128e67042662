// ElevenLabs adapter contract for speech against a local fake of its API: TTS, voice clones, dialogue, speech-to-text,
// rate limits; task, media and ledger end right (keys and quota: elevenlabs-outages.test.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createUser, waitForTask } from '../../test-support/tasks';
import { asyncResult, submitTool, uploadMedia } from '../../test-support/customer-calls';
import { expectFailedAndRefunded, taskMedia } from '../../test-support/task-outcomes';
import { expectCharged, expectChargedOnce } from '../../test-support/ledger';
import { probeMedia } from '../../media/probe';
import { ELEVENLABS_PRICES } from '../../../src/lib/product-rules';
import { ELEVENLABS_MODELS, ELEVENLABS_VOICES } from './elevenlabs-constants';
import { playgroundTask, providerCosts } from './adapter-tasks.fixtures';
import { KEY, price, TEXT, useElevenLabsFake, view } from './elevenlabs.fixtures';

const el = useElevenLabsFake();
const { media, app, posts } = el;

describe('ElevenLabs speech against a fake ElevenLabs API', () => {
  it('tts-common sends the mapped premade voice, the fast model and the key, stores the MP3 with its measured length, charges by characters', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(
      t,
      await submitTool(t, user.apiKey, 'do_tts_common', { audioId: 'en-gb-male-1', text: TEXT, speed: 210 }),
    );
    expect(task.status, task.error ?? '').toBe('succeeded');
    const call = posts('/v1/text-to-speech/')[0]!;
    expect(call.path).toBe(`/v1/text-to-speech/${ELEVENLABS_VOICES['en-gb-male-1']!.voiceId}`);
    expect(call.key).toBe(KEY);
    expect(call.query.get('output_format')).toBe('mp3_44100_128');
    expect(call.json).toMatchObject({
      text: TEXT,
      model_id: ELEVENLABS_MODELS.ttsCommon,
      voice_settings: { speed: 1.2 },
    });
    const stored = await taskMedia(t, task.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ kind: 'audio', mime: 'audio/mpeg', size: readFileSync(media.tone).length });
    expect(stored[0]!.duration_ms! / 1000).toBeCloseTo((await probeMedia(readFileSync(media.tone)))!.durationS!, 1);
    expect(task.credits_charged).toBe(price('tts-common', { characters: TEXT.length }));
    await expectCharged(t, user, task.credits_charged!);
    // What ElevenLabs said it billed (character-cost), at the published price of a billed character.
    const billed = Math.ceil(TEXT.length / 2);
    expect(await providerCosts(t, task.id)).toEqual([
      {
        provider: 'elevenlabs',
        amount: billed,
        unit: 'characters',
        usd: billed * ELEVENLABS_PRICES.usdPerBilledCharacter,
        estimated: 0,
      },
    ]);
  });

  it('tts-pro speaks with the multilingual model and is charged at the Pro rate', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitTool(t, user.apiKey, 'do_tts_pro', { lan: 'fr', text: TEXT }));
    expect(task.status, task.error ?? '').toBe('succeeded');
    const call = posts('/v1/text-to-speech/')[0]!;
    expect(call.path).toBe(`/v1/text-to-speech/${ELEVENLABS_VOICES['fr-female-1']!.voiceId}`);
    expect(call.json).toMatchObject({ model_id: ELEVENLABS_MODELS.ttsPro });
    expect(call.json).not.toHaveProperty('voice_settings');
    expect(await taskMedia(t, task.id)).toHaveLength(1);
    expect(task.credits_charged).toBe(price('tts-pro', { characters: TEXT.length }));
    await expectCharged(t, user, task.credits_charged!);
  });

  it('a voice clone uploads the recording as multipart, answers the new voice id as cloneId for free, and tts-clone speaks with it', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const voiceUrl = await uploadMedia(t, user, media.speech);
    const clone = await waitForTask(t, await submitTool(t, user.apiKey, 'voice_clone', { voiceUrl }));
    expect(clone.status, clone.error ?? '').toBe('succeeded');
    const added = posts('/v1/voices/add')[0]!;
    expect(added.form).toMatchObject({
      name: `Voice clone ${clone.id}`,
      files: { type: 'audio/wav', size: readFileSync(media.speech).length },
    });
    const cloneId = (await view(t, user, clone.id)).cloneId!;
    expect(cloneId).toBe('clone1Voice');
    expect(await taskMedia(t, clone.id)).toHaveLength(0);
    expect(clone.credits_charged).toBe(0);

    const spoken = await waitForTask(t, await submitTool(t, user.apiKey, 'do_tts_clone', { cloneId, text: TEXT }));
    expect(spoken.status, spoken.error ?? '').toBe('succeeded');
    expect(posts('/v1/text-to-speech/')[0]!.path).toBe(`/v1/text-to-speech/${cloneId}`);
    expect(posts('/v1/text-to-speech/')[0]!.json).toMatchObject({ model_id: ELEVENLABS_MODELS.ttsClone });
    expect(await taskMedia(t, spoken.id)).toHaveLength(1);
    await expectCharged(t, user, price('tts-clone', { characters: TEXT.length }));
  });

  it('a refused input (unknown cloned voice, 400) fails with ElevenLabs own words, refunded', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const task = await expectFailedAndRefunded(
      t,
      user,
      await submitTool(t, user.apiKey, 'do_tts_clone', { cloneId: 'noSuchVoice', text: TEXT }),
      'ElevenLabs refused the input: A voice with voice_id noSuchVoice was not found.',
    );
    expect(task.error).not.toContain('{');
  });

  it('dialogue goes to text-to-dialogue on Eleven v3 with one voice per speaker; a long script is sent in parts and joined', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const long = 'word '.repeat(240).trim();
    const lines = [
      { speaker: 'A', text: long },
      { speaker: 'B', text: long },
      { speaker: 'A', text: 'Short goodbye.' },
    ];
    const id = await playgroundTask(t, user, 'speech/v1/dialogue', {
      lines,
      voices: { A: 'en-us-female-1', B: 'de-male-1' },
    });
    const task = await waitForTask(t, id);
    expect(task.status, task.error ?? '').toBe('succeeded');
    const calls = posts('/v1/text-to-dialogue');
    expect(calls).toHaveLength(2);
    expect(calls[0]!.json).toEqual({
      model_id: ELEVENLABS_MODELS.dialogue,
      inputs: [{ text: long, voice_id: ELEVENLABS_VOICES['en-us-female-1']!.voiceId }],
    });
    expect(calls[1]!.json!.inputs).toEqual([
      { text: long, voice_id: ELEVENLABS_VOICES['de-male-1']!.voiceId },
      { text: 'Short goodbye.', voice_id: ELEVENLABS_VOICES['en-us-female-1']!.voiceId },
    ]);
    const stored = await taskMedia(t, task.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ kind: 'audio', mime: 'audio/mpeg' });
    expect(stored[0]!.size).toBeGreaterThan(readFileSync(media.tone).length * 1.9);
    expect(stored[0]!.duration_ms! / 1000).toBeCloseTo(2 * (await probeMedia(readFileSync(media.tone)))!.durationS!, 0);
    await expectCharged(t, user, price('dialogue', { characters: lines.reduce((n, l) => n + l.text.length, 0) }));
    // Dialogue answers carried no character-cost: each request is estimated from its own text, one billed character
    // each.
    expect((await providerCosts(t, task.id)).map((c) => [c.amount, c.unit, c.estimated])).toEqual([
      [long.length, 'characters', 1],
      [long.length + 'Short goodbye.'.length, 'characters', 1],
    ]);
  });

  it('stt-common sends the audio to Scribe, returns the transcript in the task view and getAsyncResult, charged per started minute of the real audio', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const audioUrl = await uploadMedia(t, user, media.speech);
    const task = await waitForTask(t, await submitTool(t, user.apiKey, 'do_stt', { audioUrl, lan: 'en-US' }));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(posts('/v1/speech-to-text')[0]!.form).toMatchObject({
      model_id: ELEVENLABS_MODELS.sttCommon,
      language_code: 'en',
      tag_audio_events: 'false',
      file: { type: 'audio/wav' },
    });
    expect(posts('/v1/speech-to-text')[0]!.form).not.toHaveProperty('diarize');
    expect((await view(t, user, task.id)).text).toBe('Hello there. Hi (laughs)');
    expect((await asyncResult<{ text: string }>(t, user.apiKey, task.id)).text).toBe('Hello there. Hi (laughs)');
    expect(await taskMedia(t, task.id)).toHaveLength(0);
    expect(task.credits_charged).toBe(price('stt-common', { seconds: 61 }));
    expect(task.credits_charged).toBe(2);
    await expectCharged(t, user, 2);
    // Scribe reports no cost: the seconds of audio it read at the published price per hour, estimated.
    const [cost] = await providerCosts(t, task.id);
    expect(cost).toMatchObject({ provider: 'elevenlabs', unit: 'media-seconds', estimated: 1 });
    expect(cost!.amount).toBeCloseTo(61, 0);
    expect(cost!.usd).toBeCloseTo(cost!.amount * ELEVENLABS_PRICES.sttUsdPerSecond, 6);
  });

  it('stt-pro asks for diarization and names the speakers; an outside audio is held on its length measured at submit and charged on its real length', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const audioUrl = `${el.fake.url}/files/speech.wav`;
    // DreamAPI's do_stt_pro takes a list of locales: the first is the language hint.
    const task = await waitForTask(
      t,
      await submitTool(t, user.apiKey, 'do_stt_pro', { audioUrl, lan: ['fr-FR', 'en-US'] }),
    );
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(posts('/v1/speech-to-text')[0]!.form).toMatchObject({
      model_id: ELEVENLABS_MODELS.sttPro,
      diarize: 'true',
      tag_audio_events: 'true',
      language_code: 'fr',
    });
    expect((await view(t, user, task.id)).text).toBe('Speaker 1: Hello there.\nSpeaker 2: Hi (laughs)');
    expect(task.credits_held).toBe(4);
    expect(task.credits_charged).toBe(price('stt-pro', { seconds: 61 }));
    expect(task.credits_charged).toBe(4);
    await expectCharged(t, user, 4);
  });

  it('a 429 with Retry-After is waited out and retried; the task succeeds, charged once', async () => {
    el.fake.mode = 'rate-limited';
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitTool(t, user.apiKey, 'do_tts_common', { text: TEXT }));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(posts('/v1/text-to-speech/')).toHaveLength(2);
    expect(await taskMedia(t, task.id)).toHaveLength(1);
    const credits = await expectChargedOnce(t, user, price('tts-common', { characters: TEXT.length }));
    expect(credits.ledger.filter((r) => r.reference === task.id && r.reason === 'task-hold')).toHaveLength(1);
  });
});
