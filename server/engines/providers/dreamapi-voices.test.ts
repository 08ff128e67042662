// DreamAPI speech voices: every language offered on the engine sends a documented audioId; any other is refused at
// submit (400 naming audioId) and never sent upstream.
import { describe, expect, it } from 'vitest';
import { createUser, waitForTask } from '../../test-support/tasks';
import { postPlayground, submitTool } from '../../test-support/customer-calls';
import { VOICES, voiceServed } from '../../../src/lib/product-rules';
import type { FeatureState } from '../../../src/lib/api/types';
import { DREAMAPI_TTS_AUDIO_IDS, DREAMAPI_TTS_LANGUAGES } from './dreamapi-constants';
import { toDreamApi } from './dreamapi-inputs';
import { EngineUnsupportedError } from '../types';
import { ALL, KEY, useDreamApiFake } from './dreamapi.fixtures';

const dream = useDreamApiFake();
const { app, submits } = dream;
const WITH_PRO = { ENGINES: `${ALL},tts-pro=dreamapi` };

async function callTool(t: Awaited<ReturnType<typeof app>>, apiKey: string, tool: string, body: unknown) {
  const res = await t.app.request(`/api/async/${tool}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, answer: (await res.json()) as { code: number; message: string } };
}

// Every voice runs a task, one after the other: minutes are allowed for a busy machine.
describe('DreamAPI speech voices', { timeout: 90_000 }, () => {
  it('every voice offered on DreamAPI runs with a documented audioId for its language, Common and Pro', async () => {
    const t = await app(WITH_PRO);
    const user = await createUser(t, 500);
    for (const [tool, feature] of [
      ['do_tts_common', 'tts-common'],
      ['do_tts_pro', 'tts-pro'],
    ] as const) {
      const offered = VOICES.filter((v) => voiceServed(v, DREAMAPI_TTS_LANGUAGES[feature]));
      expect(offered.length).toBeGreaterThan(0);
      for (const voice of offered) {
        const task = await waitForTask(
          t,
          await submitTool(t, user.apiKey, tool, { text: 'Hello there', audioId: voice.id }),
        );
        expect(task.status, task.error ?? '').toBe('succeeded');
      }
      const bodies = submits(tool).map((c) => c.body);
      expect(bodies).toHaveLength(offered.length);
      expect(bodies.every((b) => b.audioId === DREAMAPI_TTS_AUDIO_IDS[feature][b.lan as string])).toBe(true);
    }
  });

  it('a French voice is refused at submit with 400 naming audioId, on the public API (by audioId or lan) and the playground; nothing reaches DreamAPI', async () => {
    const t = await app(WITH_PRO);
    const user = await createUser(t, 100);
    for (const body of [
      { text: 'Bonjour', audioId: 'fr-female-1' },
      { text: 'Bonjour', lan: 'fr' },
    ]) {
      for (const tool of ['do_tts_common', 'do_tts_pro']) {
        const { status, answer } = await callTool(t, user.apiKey, tool, body);
        expect(status).toBe(400);
        expect(answer.code).toBe(10192);
        expect(answer.message).toMatch(
          /^Illegal parameter: audioId: the voice fr-(fe)?male-1 speaks French, which is not available on DreamAPI/,
        );
        expect(answer.message).toContain('en-us-female-1');
      }
    }
    const res = await postPlayground(t, user, 'speech/v1/tts', {
      text: 'Bonjour',
      voiceId: 'fr-male-1',
      quality: 'pro',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { msg: string }).msg).toContain('not available on DreamAPI');
    expect(dream.fake.calls.filter((c) => c.path.startsWith('/api/async/'))).toHaveLength(0);
  });

  it('the features answer names the languages DreamAPI speaks, so the playground and reference can mark the others', async () => {
    const t = await app(WITH_PRO);
    const res = await t.app.request('/api-playground/task/v1/features');
    const list = ((await res.json()) as { data: { list: FeatureState[] } }).data.list;
    const state = (feature: string) => list.find((s) => s.feature === feature)!;
    expect(state('tts-common')).toMatchObject({ engine: 'dreamapi', languages: ['en'] });
    expect(state('tts-pro')).toMatchObject({ engine: 'dreamapi', languages: ['en'] });
    // Features whose engine speaks every voice (or has none) carry no list.
    expect(state('tts-clone').languages).toBeUndefined();
  });

  it('a task that reaches the adapter with a language it has no audioId for is not sent: the next engine is tried', async () => {
    const media = async () => 'unused';
    await expect(toDreamApi('tts-common', { voice: 'de-male-1', text: 'Hallo' }, media)).rejects.toThrow(
      EngineUnsupportedError,
    );
    await expect(toDreamApi('tts-common', { voice: 'de-male-1', text: 'Hallo' }, media)).rejects.toThrow(
      /^audioId: DreamAPI has no documented voice for de/,
    );
  });

  it('the stand-in refuses do_tts_common and do_tts_pro without audioId, as DreamAPI does', async () => {
    for (const tool of ['do_tts_common', 'do_tts_pro']) {
      const res = await fetch(`${dream.fake.url}/api/async/${tool}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'Bonjour', lan: 'fr' }),
      });
      expect(await res.json()).toEqual({ code: 10192, message: 'audioId is required', data: null });
    }
  });
});
