// ElevenLabs account and capacity trouble against the local stand-in: a spent quota, a refused key, a provider busy for
// good make the engine unavailable, told plainly to people and in full to the operator.
import { describe, expect, it } from 'vitest';
import { createUser, waitForTask, type TasksTestApp } from '../../test-support/tasks';
import { submitTool } from '../../test-support/customer-calls';
import { expectFailedAndRefunded } from '../../test-support/task-outcomes';
import { FEATURE_MESSAGES, PROVIDER_UNAVAILABLE } from '../../../src/lib/product-rules';
import { elevenLabsEngine } from './elevenlabs';
import { capturedLog, KEY, TEXT, useElevenLabsFake } from './elevenlabs.fixtures';

const el = useElevenLabsFake();
const { openApp, posts } = el;

/** Words only an operator can act on: never in what the people calling read. */
const OPERATOR_WORDS = /key|config|quota|billing|remaining|ELEVENLABS_|401|429/i;

/** An app whose only tts-common engine is ElevenLabs with this key, its operator lines captured. */
async function appWith(key: string) {
  const log = capturedLog();
  const engine = elevenLabsEngine({ key, baseUrl: el.fake.url, lipSync: null, log });
  const t = await openApp({ engines: [engine], env: { ENGINES: 'tts-common=elevenlabs' } });
  return { t, log, engine };
}

/** A new user's speech task fails as the engine unavailable, refunded, naming nothing of the configuration. */
async function speechFailsAsUnavailable(t: TasksTestApp) {
  const user = await createUser(t, 100);
  const task = await expectFailedAndRefunded(
    t,
    user,
    await submitTool(t, user.apiKey, 'do_tts_common', { text: TEXT }),
    PROVIDER_UNAVAILABLE.message('ElevenLabs'),
  );
  expect(task.error).not.toMatch(OPERATOR_WORDS);
  return user;
}

describe('ElevenLabs outages against a local stand-in', () => {
  it('a spent quota (401 quota_exceeded) fails the task as engine unavailable, names no configuration, logs the detail, and takes the engine out so the next submit gets 503', async () => {
    el.fake.mode = 'quota';
    const { t, log, engine } = await appWith(KEY);
    const user = await speechFailsAsUnavailable(t);
    // Not retried: ElevenLabs' own client sends a 401 once.
    expect(posts('/v1/text-to-speech/')).toHaveLength(1);
    expect(log.lines).toHaveLength(1);
    expect(String(log.lines[0]!.fields!.detail)).toBe(
      'ElevenLabs answered 401 quota_exceeded: This request exceeds your quota of 10000. You have 12 credits remaining.',
    );
    expect(engine.unavailable?.()).toContain('quota_exceeded');
    const res = await t.app.request('/api/async/do_tts_common', {
      method: 'POST',
      headers: { authorization: `Bearer ${user.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: TEXT }),
    });
    expect(res.status).toBe(503);
    const answer = (await res.json()) as { message?: string; msg?: string };
    expect(answer.message ?? answer.msg).toBe(FEATURE_MESSAGES.unavailable);
  });

  it('a refused API key (401 invalid_api_key) tells people the engine is unavailable and the operator which key problem', async () => {
    const { t, log } = await appWith('wrong-key');
    await speechFailsAsUnavailable(t);
    expect(String(log.lines[0]!.fields!.detail)).toBe('ElevenLabs answered 401 invalid_api_key: Invalid API key');
  });

  it('ElevenLabs busy on every try (429 system_busy) is retried, then the engine is unavailable for a while', async () => {
    el.fake.mode = 'busy';
    const { t, log, engine } = await appWith(KEY);
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitTool(t, user.apiKey, 'do_tts_common', { text: TEXT }));
    expect(task.status).toBe('failed');
    expect(task.error).toContain(PROVIDER_UNAVAILABLE.message('ElevenLabs'));
    expect(task.error).not.toMatch(OPERATOR_WORDS);
    expect(posts('/v1/text-to-speech/').length).toBeGreaterThan(1);
    expect(String(log.lines[0]!.fields!.detail)).toContain('429 system_busy');
    expect(engine.unavailable?.()).toContain('system_busy');
  });
});
