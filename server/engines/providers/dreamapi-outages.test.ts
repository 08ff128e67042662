// DreamAPI account trouble and refused inputs against the local stand-in: a refused key or spent credits make the
// engine unavailable (fallback, else 503), told plainly to people and in full to the operator; a refused field is
// named.
import { describe, expect, it } from 'vitest';
import { createUser, waitForTask } from '../../test-support/tasks';
import { capturedLog } from '../../test-support/provider-fakes';
import { expectFailedAndRefunded } from '../../test-support/task-outcomes';
import { FEATURE_MESSAGES, PROVIDER_UNAVAILABLE } from '../../../src/lib/product-rules';
import { EngineInputError, EngineUnavailableError } from '../types';
import { dreamApiEngine } from './dreamapi';
import { dreamApiRefusal } from './dreamapi-errors';
import { KEY, useDreamApiFake } from './dreamapi.fixtures';

const dream = useDreamApiFake();

/** Words only an operator can act on: never in what the people calling read. */
const OPERATOR_WORDS = /key|config|balance|DREAMAPI_|401|402|40001|40020/i;

/**
 * An app whose Wan text-to-video chain is `chain`, its DreamAPI engine talking to the stand-in with this key, operator
 * lines captured.
 */
async function appWith(key: string, chain: string) {
  const log = capturedLog();
  const engine = dreamApiEngine({ key, baseUrl: dream.fake.url, log });
  const t = await dream.openApp({ engines: [engine], env: { ENGINES: `wan-text-to-video=${chain}` } });
  return { t, log, engine };
}

describe('DreamAPI outages against a local stand-in', { timeout: 30_000 }, () => {
  it('a refused key (401, code 40001) fails the task as engine unavailable, names no configuration, logs the detail, and the next submit gets 503', async () => {
    const { t, log, engine } = await appWith('wrong-key', 'dreamapi');
    const user = await createUser(t, 100);
    const task = await expectFailedAndRefunded(
      t,
      user,
      await dream.submitWan(t, user),
      PROVIDER_UNAVAILABLE.message('DreamAPI'),
    );
    expect(task.error).not.toMatch(OPERATOR_WORDS);
    // Not retried: a refused key stays refused.
    expect(dream.submits('wan/text_to_video/2.1')).toHaveLength(1);
    expect(log.lines).toHaveLength(1);
    expect(String(log.lines[0]!.fields!.detail)).toBe('DreamAPI answered 401 code 40001: Invalid API key');
    expect(engine.unavailable?.()).toContain('40001');
    const res = await t.app.request('/api/async/wan/text_to_video/2.1', {
      method: 'POST',
      headers: { authorization: `Bearer ${user.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'a hare', resolution: '480p' }),
    });
    expect(res.status).toBe(503);
    const answer = (await res.json()) as { message?: string; msg?: string };
    expect(answer.message ?? answer.msg).toBe(FEATURE_MESSAGES.unavailable);
  });

  it('spent credits (402, code 40020) hand the task to the next engine of the chain and take DreamAPI out of it for a while', async () => {
    dream.fake.mode = 'no-credits';
    const { t, log, engine } = await appWith(KEY, 'dreamapi|preview');
    const user = await createUser(t, 200);
    const task = await waitForTask(t, await dream.submitWan(t, user));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(task.engine).toBe('preview');
    expect(String(log.lines[0]!.fields!.detail)).toBe(
      'DreamAPI answered 402 code 40020: Not enough credits for this task: it needs 15, the balance is 3',
    );
    expect(engine.unavailable?.()).toContain('40020');
    // Rendered by the preview engine on a machine shared with other work.
  }, 60_000);

  it('a refused field (400, code 40000 "prompt: …") fails the task as the input fault naming the field, without falling back', async () => {
    dream.fake.mode = 'invalid-field';
    const { t, engine } = await appWith(KEY, 'dreamapi|preview');
    const user = await createUser(t, 100);
    const task = await expectFailedAndRefunded(
      t,
      user,
      await dream.submitWan(t, user),
      'prompt: must be at most 1500 characters',
    );
    expect(task.engine).toBe('dreamapi');
    expect(engine.unavailable?.()).toBeNull();
  });

  it('reads a 422 as an input error naming its field, and 429 after every retry as a capacity outage', () => {
    const invalid = dreamApiRefusal(422, { code: 40000, message: 'audioId is required' });
    expect(invalid).toBeInstanceOf(EngineInputError);
    expect((invalid as EngineInputError).field).toBe('audioId');
    const busy = dreamApiRefusal(429, { code: 40029, message: 'Too many requests' });
    expect(busy).toBeInstanceOf(EngineUnavailableError);
    expect((busy as EngineUnavailableError).forMs).toBe(PROVIDER_UNAVAILABLE.capacityMs);
    expect(busy.message).toBe(PROVIDER_UNAVAILABLE.message('DreamAPI'));
  });
});
