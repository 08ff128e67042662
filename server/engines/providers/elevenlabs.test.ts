// ElevenLabs adapter contract: a local fake of ElevenLabs' API (TTS, dialogue, voices/add, dubbing, speech-to-text); task, media and ledger end right.
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, waitForTask, type TasksTestApp, type TestUser } from '../../test-support/tasks';
import { asyncResult, expectCharged, expectChargedOnce, expectFailedAndRefunded, listenLocal, postPlayground, readBody, sendFile, sendJson, sendProxyErrorPage, sineAudio, submitTool, taskMedia, videoClip, uploadMedia, useTestMedia, useTestApps, withMode, type LocalServer } from '../../test-support/provider-fakes';
import { estimateCredits } from '../../tasks';
import { probeMedia } from '../../media/probe';
import { ELEVENLABS_MODELS, ELEVENLABS_VOICES } from '../../../src/lib/spec/elevenlabs';
import { VOICES, type Feature } from '../../../src/lib/spec/tasks';
import type { LipSync, MediaBytes } from '../types';
import { elevenLabsEngine } from './elevenlabs';
import { readableError } from './elevenlabs-api';
import { dialogueChunks, speakerTurns } from './elevenlabs-speech';
import { ProviderError } from './http';
import { EngineInputError } from '../types';

type Mode = 'ok' | 'gated' | 'fail' | 'hang' | 'malformed' | 'rate-limited';
type FormValue = string | { name: string; type: string; size: number };

interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  key: string | undefined;
  json?: Record<string, unknown>;
  form?: Record<string, FormValue>;
}

/** The fake: records every call; `mode` decides how the next requests and jobs behave. */
interface Fake extends LocalServer {
  mode: Mode;
  calls: Call[];
  /** Lets the jobs of a 'gated' test finish. */
  release(): void;
  /** Forgets the calls and jobs of the last test (dubbing ids start again at dub1). */
  reset(): void;
}

const KEY = 'test-key';
const media = useTestMedia('elevenlabs-test-', {
  tone: sineAudio('tone.mp3', 1),
  speech: sineAudio('speech.wav', 61, { sampleRate: 8000 }),
  source: videoClip('source.mp4', 1, { audio: true }),
  dubbed: videoClip('dubbed.mp4', 3, { audio: true }),
  synced: videoClip('synced.mp4', 2, { audio: true }),
});
let fake: Fake;

/** Multipart bodies are parsed as ElevenLabs would: text fields, and files with their name, type and size. */
async function parseBody(req: IncomingMessage, body: Buffer): Promise<Pick<Call, 'json' | 'form'>> {
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('application/json')) return { json: JSON.parse(body.toString()) as Record<string, unknown> };
  if (!type.startsWith('multipart/form-data')) return {};
  const form: Record<string, FormValue> = {};
  for (const [name, value] of await new Response(new Uint8Array(body), { headers: { 'content-type': type } }).formData()) {
    form[name] = typeof value === 'string' ? value : { name: value.name, type: value.type, size: value.size };
  }
  return { form };
}

async function startFake(): Promise<Fake> {
  const state = { mode: 'ok' as Mode, calls: [] as Call[], rateLimited: 0, released: false, clones: new Set<string>() };
  const jobs = new Map<string, { mode: Mode; target: string; polls: number }>();
  const premade = new Set(Object.values(ELEVENLABS_VOICES).map((v) => v.voiceId));
  const local = await listenLocal(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    const key = req.headers['xi-api-key'] as string | undefined;
    const call: Call = { method: req.method ?? '', path: url.pathname, query: url.searchParams, key, ...(await parseBody(req, body)) };
    state.calls.push(call);
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) => sendJson(res, status, value, headers);
    const html = () => sendProxyErrorPage(res);
    // Files ElevenLabs does not serve: an input on another host, reached without the key.
    if (req.method === 'GET' && url.pathname.startsWith('/files/')) return sendFile(res, path.join(media.dir, path.basename(url.pathname)), 'audio/wav');
    if (key !== KEY) return send(401, { detail: { status: 'invalid_api_key', message: 'Invalid API key' } });
    if (state.mode === 'rate-limited' && req.method === 'POST' && state.rateLimited++ === 0) return send(429, { detail: { status: 'too_many_concurrent_requests', message: 'Too many requests' } }, { 'retry-after': '1' });

    const tts = /^\/v1\/text-to-speech\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'POST' && (tts || url.pathname === '/v1/text-to-dialogue')) {
      const voices = tts ? [decodeURIComponent(tts[1]!)] : ((call.json?.inputs as Array<{ voice_id: string }> | undefined) ?? []).map((i) => i.voice_id);
      const unknown = voices.find((v) => !premade.has(v) && !state.clones.has(v));
      if (unknown) return send(400, { detail: { status: 'voice_not_found', message: `A voice with voice_id ${unknown} was not found.` } });
      if (!call.json?.model_id) return send(422, { detail: [{ loc: ['body', 'model_id'], msg: 'field required', type: 'value_error.missing' }] });
      return state.mode === 'malformed' ? html() : sendFile(res, media.tone, 'audio/mpeg');
    }
    if (req.method === 'POST' && url.pathname === '/v1/voices/add') {
      const recording = call.form?.files;
      if (!call.form?.name || typeof recording !== 'object') return send(422, { detail: [{ loc: ['body', 'files'], msg: 'field required' }] });
      if (state.mode === 'malformed') return send(200, { requires_verification: false });
      const id = `clone${state.clones.size + 1}Voice`;
      state.clones.add(id);
      return send(200, { voice_id: id, requires_verification: false });
    }
    if (req.method === 'POST' && url.pathname === '/v1/dubbing') {
      if (state.mode === 'malformed') return html();
      if (typeof call.form?.file !== 'object' || typeof call.form.target_lang !== 'string') return send(400, { detail: { status: 'invalid_request', message: 'Provide a file or a source_url and a target_lang' } });
      const id = `dub${jobs.size + 1}`;
      jobs.set(id, { mode: state.mode, target: call.form.target_lang, polls: 0 });
      return send(200, { dubbing_id: id, expected_duration_sec: 2 });
    }
    const dub = /^\/v1\/dubbing\/([^/]+)(\/audio\/([^/]+))?$/.exec(url.pathname);
    const job = dub ? jobs.get(dub[1]!) : undefined;
    if (dub && !job) return send(404, { detail: { status: 'dubbing_not_found', message: 'Dubbing not found' } });
    if (job && req.method === 'DELETE') return send(200, { status: 'ok' });
    if (job && req.method === 'GET' && dub![3]) return dub![3] === job.target ? sendFile(res, media.dubbed, 'video/mp4') : send(404, { detail: { status: 'language_not_found', message: 'No dub for this language' } });
    if (job && req.method === 'GET') {
      job.polls++;
      const done = job.mode === 'gated' ? state.released : job.mode === 'ok' && job.polls > 1;
      if (job.mode === 'fail' && job.polls > 1) return send(200, { dubbing_id: dub![1], status: 'failed', target_languages: [job.target], error: 'No speech was found in the video' });
      return send(200, { dubbing_id: dub![1], name: 'x', status: done ? 'dubbed' : 'dubbing', target_languages: [job.target] });
    }
    if (req.method === 'POST' && url.pathname === '/v1/speech-to-text') {
      if (state.mode === 'malformed') return html();
      if (typeof call.form?.file !== 'object' || !call.form.model_id) return send(422, { detail: [{ loc: ['body', 'file'], msg: 'field required' }] });
      const diarize = call.form.diarize === 'true';
      const word = (text: string, speaker: string, type = 'word') => ({ text, type, start: 0, end: 0, ...(diarize ? { speaker_id: speaker } : {}) });
      const words = [word('Hello', 'speaker_0'), word(' ', 'speaker_0', 'spacing'), word('there.', 'speaker_0'), word(' ', 'speaker_1', 'spacing'), word('Hi', 'speaker_1'), word(' ', 'speaker_1', 'spacing'), word('(laughs)', 'speaker_1', 'audio_event')];
      return send(200, { language_code: 'eng', language_probability: 0.98, text: 'Hello there. Hi (laughs)', words });
    }
    send(404, { detail: { status: 'not_found', message: 'Not found' } });
  });
  const release = () => {
    state.released = true;
  };
  const reset = () => {
    state.calls.length = 0;
    jobs.clear();
  };
  return withMode({ ...local, calls: state.calls, release, reset }, state, () => {
    state.rateLimited = 0;
    state.released = false;
  });
}

beforeAll(async () => {
  fake = await startFake();
});
afterAll(() => fake.close());

const openApp = useTestApps(() => {
  fake.reset();
  fake.mode = 'ok';
});

const SERVED = 'tts-common=elevenlabs,tts-pro=elevenlabs,tts-clone=elevenlabs,voice-clone=elevenlabs,dialogue=elevenlabs,video-translate-voice-only=elevenlabs,stt-common=elevenlabs,stt-pro=elevenlabs';

async function app(extra: Record<string, string> = {}) {
  return openApp({ env: { ELEVENLABS_API_KEY: KEY, ELEVENLABS_BASE_URL: fake.url, ENGINES: SERVED, ...extra } });
}

async function view(t: TasksTestApp, user: TestUser, taskId: string) {
  const res = await postPlayground(t, user, 'video_tools/v1/poll', { taskId });
  return ((await res.json()) as { data: { text: string | null; cloneId: string | null; outputs: Array<{ kind: string; mime: string; durationS: number | null }> } }).data;
}

const price = (feature: Feature, measures: Parameters<typeof estimateCredits>[1]) => estimateCredits(feature, measures).credits;
const posts = (p: string) => fake.calls.filter((c) => c.method === 'POST' && c.path.startsWith(p));
const TEXT = 'Hello from the ElevenLabs adapter.';

describe('ElevenLabs mapping rules', () => {
  it('every voice we offer is spoken by an ElevenLabs voice', () => {
    for (const v of VOICES) expect(ELEVENLABS_VOICES[v.id]?.voiceId, v.id).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it('dialogue requests stay within the reliable 2,000 characters; a longer line goes alone', () => {
    const line = (n: number) => ({ text: 'x'.repeat(n), voice_id: 'v' });
    expect(dialogueChunks([line(900), line(900), line(900)]).map((c) => c.length)).toEqual([2, 1]);
    expect(dialogueChunks([line(2500), line(10)]).map((c) => c.length)).toEqual([1, 1]);
  });

  it("errors quote ElevenLabs' own words: detail messages, validation lists, even a detail cut short", () => {
    const said = (e: Error) => (readableError(e) as Error).message;
    expect(said(new EngineInputError('ElevenLabs refused the input: [{"loc":["body","text"],"msg":"field required","type":"value_error.missing"}]'))).toBe('ElevenLabs refused the input: field required');
    expect(said(new EngineInputError('ElevenLabs refused the input: {"detail":{"status":"max_character_limit_exceeded","message":"Text is too long."},"x":"cut her'))).toBe('ElevenLabs refused the input: Text is too long.');
    expect(said(new ProviderError('ElevenLabs failed'))).toBe('ElevenLabs failed');
  });

  it('a spent quota is the account\'s problem, not the input\'s: another engine may still serve the task', () => {
    const error = readableError(new EngineInputError('ElevenLabs refused the input: {"status":"quota_exceeded","message":"You have 3 credits remaining."}'));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toBe('ElevenLabs has no quota left for this request: You have 3 credits remaining.');
  });

  it('a diarized transcript names speakers in the order they first speak', () => {
    const w = (text: string, speaker_id: string, type = 'word') => ({ text, speaker_id, type });
    expect(speakerTurns([w('Hi.', 'speaker_3'), w(' ', 'speaker_3', 'spacing'), w('Yes', 'speaker_0'), w(' ', 'speaker_0', 'spacing'), w('ok', 'speaker_3')])).toBe('Speaker 1: Hi.\nSpeaker 2: Yes\nSpeaker 1: ok');
    expect(speakerTurns([{ text: 'plain', type: 'word' }])).toBeNull();
  });
});

describe('ElevenLabs adapter against a fake ElevenLabs API', () => {
  it('tts-common sends the mapped premade voice, the fast model and the key, stores the MP3 with its measured length, charges by characters', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitTool(t, user.apiKey, 'do_tts_common', { audioId: 'en-gb-male-1', text: TEXT, speed: 210 }));
    expect(task.status, task.error ?? '').toBe('succeeded');
    const call = posts('/v1/text-to-speech/')[0]!;
    expect(call.path).toBe(`/v1/text-to-speech/${ELEVENLABS_VOICES['en-gb-male-1']!.voiceId}`);
    expect(call.key).toBe(KEY);
    expect(call.query.get('output_format')).toBe('mp3_44100_128');
    expect(call.json).toMatchObject({ text: TEXT, model_id: ELEVENLABS_MODELS.ttsCommon, voice_settings: { speed: 1.2 } });
    const stored = await taskMedia(t, task.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ kind: 'audio', mime: 'audio/mpeg', size: readFileSync(media.tone).length });
    expect(stored[0]!.duration_ms! / 1000).toBeCloseTo((await probeMedia(readFileSync(media.tone)))!.durationS!, 1);
    expect(task.credits_charged).toBe(price('tts-common', { characters: TEXT.length }));
    await expectCharged(t, user, task.credits_charged!);
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
    expect(added.form).toMatchObject({ name: `Voice clone ${clone.id}`, files: { type: 'audio/wav', size: readFileSync(media.speech).length } });
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
    const task = await expectFailedAndRefunded(t, user, await submitTool(t, user.apiKey, 'do_tts_clone', { cloneId: 'noSuchVoice', text: TEXT }), 'ElevenLabs refused the input: A voice with voice_id noSuchVoice was not found.');
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
    const res = await postPlayground(t, user, 'speech/v1/dialogue', { lines, voices: { A: 'en-us-female-1', B: 'de-male-1' } });
    const task = await waitForTask(t, ((await res.json()) as { data: { taskId: string } }).data.taskId);
    expect(task.status, task.error ?? '').toBe('succeeded');
    const calls = posts('/v1/text-to-dialogue');
    expect(calls).toHaveLength(2);
    expect(calls[0]!.json).toEqual({ model_id: ELEVENLABS_MODELS.dialogue, inputs: [{ text: long, voice_id: ELEVENLABS_VOICES['en-us-female-1']!.voiceId }] });
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
  });

  it('video translate (voice only) uploads the video with its languages, reports progress while dubbing, stores the dubbed MP4 and charges per real second', async () => {
    fake.mode = 'gated';
    const t = await app();
    const user = await createUser(t, 100);
    const videoUrl = await uploadMedia(t, user, media.source);
    const id = await submitTool(t, user.apiKey, 'video_translate/2.0', { videoUrl, sourceLanguage: 'en-US', targetLanguage: 'es', enableLipSync: false });
    await expect.poll(async () => (await t.database.db.selectFrom('tasks').select('progress').where('id', '=', id).executeTakeFirstOrThrow()).progress, { timeout: 10_000 }).toBeGreaterThanOrEqual(10);
    fake.release();
    const task = await waitForTask(t, id);
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(posts('/v1/dubbing')[0]!.form).toMatchObject({ target_lang: 'es', source_lang: 'en', num_speakers: '0', file: { type: 'video/mp4', size: readFileSync(media.source).length } });
    expect(fake.calls.some((c) => c.method === 'GET' && c.path === '/v1/dubbing/dub1/audio/es')).toBe(true);
    expect(fake.calls.some((c) => c.method === 'DELETE')).toBe(false);
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
      return { kind: 'video', mime: 'video/mp4', data, durationS: null };
    };
    // Built here with its lip-sync model; no ELEVENLABS_API_KEY so the registry holds this engine alone under the name.
    const engine = elevenLabsEngine({ key: KEY, baseUrl: fake.url, lipSync });
    expect(engine.features).toContain('video-translate-lip-sync');
    const t = await openApp({ engines: [engine], env: { ENGINES: 'video-translate-lip-sync=elevenlabs' } });
    const user = await createUser(t, 100);
    const videoUrl = await uploadMedia(t, user, media.source);
    const task = await waitForTask(t, await submitTool(t, user.apiKey, 'video_translate/2.0', { videoUrl, targetLanguage: 'fr' }));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(posts('/v1/dubbing')[0]!.form).toMatchObject({ target_lang: 'fr', source_lang: 'auto' });
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
  });

  it('without a lip-sync model, lip-synced translation is not offered, so configuring it fails at start', async () => {
    expect(elevenLabsEngine({ key: KEY, baseUrl: fake.url, lipSync: null }).features).not.toContain('video-translate-lip-sync');
    await expect(app({ ENGINES: 'video-translate-lip-sync=elevenlabs' })).rejects.toThrow('cannot serve video-translate-lip-sync');
  });

  it('stt-common sends the audio to Scribe, returns the transcript in the task view and getAsyncResult, charged per started minute of the real audio', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const audioUrl = await uploadMedia(t, user, media.speech);
    const task = await waitForTask(t, await submitTool(t, user.apiKey, 'do_stt', { audioUrl, lan: 'en-US' }));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(posts('/v1/speech-to-text')[0]!.form).toMatchObject({ model_id: ELEVENLABS_MODELS.sttCommon, language_code: 'en', tag_audio_events: 'false', file: { type: 'audio/wav' } });
    expect(posts('/v1/speech-to-text')[0]!.form).not.toHaveProperty('diarize');
    expect((await view(t, user, task.id)).text).toBe('Hello there. Hi (laughs)');
    expect((await asyncResult<{ text: string }>(t, user.apiKey, task.id)).text).toBe('Hello there. Hi (laughs)');
    expect(await taskMedia(t, task.id)).toHaveLength(0);
    expect(task.credits_charged).toBe(price('stt-common', { seconds: 61 }));
    expect(task.credits_charged).toBe(2);
    await expectCharged(t, user, 2);
  });

  it('stt-pro asks for diarization and names the speakers; an outside audio is held on its length measured at submit and charged on its real length', async () => {
    const t = await app();
    const user = await createUser(t, 100);
    const audioUrl = `${fake.url}/files/speech.wav`;
    // DreamAPI's do_stt_pro takes a list of locales: the first is the language hint.
    const task = await waitForTask(t, await submitTool(t, user.apiKey, 'do_stt_pro', { audioUrl, lan: ['fr-FR', 'en-US'] }));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(posts('/v1/speech-to-text')[0]!.form).toMatchObject({ model_id: ELEVENLABS_MODELS.sttPro, diarize: 'true', tag_audio_events: 'true', language_code: 'fr' });
    expect((await view(t, user, task.id)).text).toBe('Speaker 1: Hello there.\nSpeaker 2: Hi (laughs)');
    expect(task.credits_held).toBe(4);
    expect(task.credits_charged).toBe(price('stt-pro', { seconds: 61 }));
    expect(task.credits_charged).toBe(4);
    await expectCharged(t, user, 4);
  });

  it('a dubbing job that ends failed fails the task with ElevenLabs reason, refunded', async () => {
    fake.mode = 'fail';
    const t = await app();
    const user = await createUser(t, 100);
    const id = await submitTool(t, user.apiKey, 'video_translate/2.0', { videoUrl: await uploadMedia(t, user, media.source), targetLanguage: 'de', enableLipSync: false });
    await expectFailedAndRefunded(t, user, id, 'ElevenLabs could not dub the video: No speech was found in the video');
  });

  it('a dubbing past the engine timeout is deleted at ElevenLabs, failed and refunded', async () => {
    fake.mode = 'hang';
    const t = await app({ ENGINE_TIMEOUTS_MS: 'elevenlabs=1500' });
    const user = await createUser(t, 100);
    const id = await submitTool(t, user.apiKey, 'video_translate/2.0', { videoUrl: await uploadMedia(t, user, media.source), targetLanguage: 'de', enableLipSync: false });
    await expectFailedAndRefunded(t, user, id, 'timed out');
    await expect.poll(() => fake.calls.some((c) => c.method === 'DELETE' && c.path === '/v1/dubbing/dub1')).toBe(true);
  });

  it('a translation its owner deletes while dubbing is deleted at ElevenLabs and refunded', async () => {
    fake.mode = 'hang';
    const t = await app();
    const user = await createUser(t, 100);
    const id = await submitTool(t, user.apiKey, 'video_translate/2.0', { videoUrl: await uploadMedia(t, user, media.source), targetLanguage: 'de', enableLipSync: false });
    await expect.poll(() => fake.calls.some((c) => c.method === 'GET' && c.path === '/v1/dubbing/dub1'), { timeout: 10_000 }).toBe(true);
    const res = await postPlayground(t, user, 'video_tools/v1/delete', { taskId: id });
    expect(res.status).toBe(200);
    await expect.poll(() => fake.calls.some((c) => c.method === 'DELETE' && c.path === '/v1/dubbing/dub1'), { timeout: 5000 }).toBe(true);
    const credits = await expectCharged(t, user, 0);
    expect(credits.ledger.some((r) => r.reason === 'task-refund' && r.reference === id)).toBe(true);
    expect(await taskMedia(t, id)).toHaveLength(0);
  });

  it('malformed answers (HTML instead of audio or JSON, a clone with no voice_id) fail the task clearly, refunded', async () => {
    fake.mode = 'malformed';
    const t = await app();
    // One user per case, so each ledger holds that task alone; a voice clone is free and holds nothing.
    const cases: Array<[string, (user: TestUser) => Promise<Record<string, unknown>>, string]> = [
      ['do_tts_common', async () => ({ text: TEXT }), 'sent a malformed answer: expected audio, got text/html'],
      ['voice_clone', async (user) => ({ voiceUrl: await uploadMedia(t, user, media.speech) }), 'sent a malformed answer: no voice_id'],
      ['video_translate/2.0', async (user) => ({ videoUrl: await uploadMedia(t, user, media.source), targetLanguage: 'es', enableLipSync: false }), 'sent a malformed answer: <html>'],
      ['do_stt', async (user) => ({ audioUrl: await uploadMedia(t, user, media.speech) }), 'sent a malformed answer: <html>'],
    ];
    for (const [tool, body, reason] of cases) {
      const user = await createUser(t, 100);
      await expectFailedAndRefunded(t, user, await submitTool(t, user.apiKey, tool, await body(user)), `ElevenLabs ${reason}`, { free: tool === 'voice_clone' });
    }
  });

  it('a 429 with Retry-After is waited out and retried; the task succeeds, charged once', async () => {
    fake.mode = 'rate-limited';
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitTool(t, user.apiKey, 'do_tts_common', { text: TEXT }));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(posts('/v1/text-to-speech/')).toHaveLength(2);
    expect(await taskMedia(t, task.id)).toHaveLength(1);
    const credits = await expectChargedOnce(t, user, price('tts-common', { characters: TEXT.length }));
    expect(credits.ledger.filter((r) => r.reference === task.id && r.reason === 'task-hold')).toHaveLength(1);
  });

  it('a refused API key (401) fails the task saying so in plain words, refunded', async () => {
    const t = await app({ ELEVENLABS_API_KEY: 'wrong-key' });
    const user = await createUser(t, 100);
    await expectFailedAndRefunded(t, user, await submitTool(t, user.apiKey, 'do_tts_common', { text: TEXT }), 'ElevenLabs refused the API key (401: Invalid API key); check its key in the configuration');
  });
});
