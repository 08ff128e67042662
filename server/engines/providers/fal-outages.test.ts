// fal account trouble and refused inputs against the local stand-in: a refused key or a locked account makes the engine
// unavailable (fallback, else 503), told plainly to people and in full to the operator; a 422 names the field.
import { describe, expect, it } from 'vitest';
import { createUser, waitForTask } from '../../test-support/tasks';
import { capturedLog } from '../../test-support/provider-fakes';
import { submitTool } from '../../test-support/customer-calls';
import { expectFailedAndRefunded } from '../../test-support/task-outcomes';
import { FEATURE_MESSAGES, PROVIDER_UNAVAILABLE } from '../../../src/lib/product-rules';
import { falEngine } from './fal';
import { useFalFake } from './fal.fixtures';

const fal = useFalFake();

/** Words only an operator can act on: never in what the people calling read. */
const OPERATOR_WORDS = /key|config|locked|balance|FAL_|401|403/i;

/**
 * An app whose text-to-video chain is `chain`, its fal engine talking to the stand-in with this key, operator lines
 * captured.
 */
async function appWith(key: string, chain: string) {
  const log = capturedLog();
  const engine = falEngine({ ...fal.falConfig({ key }), log });
  const t = await fal.openApp({ engines: [engine], env: { ENGINES: `text-to-video=${chain}` } });
  return { t, log, engine };
}

async function submitAsync(t: Awaited<ReturnType<typeof appWith>>['t'], apiKey: string) {
  return t.app.request('/api/async/text2video', {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'a fox' }),
  });
}

describe('fal outages against a local stand-in', () => {
  it('a refused key (401) fails the task as engine unavailable, names no configuration, logs the detail, and the next submit gets 503', async () => {
    const { t, log, engine } = await appWith('wrong-key', 'fal');
    const user = await createUser(t, 100);
    const task = await expectFailedAndRefunded(
      t,
      user,
      await submitTool(t, user.apiKey, 'text2video', { prompt: 'a fox' }),
      PROVIDER_UNAVAILABLE.message('fal.ai'),
    );
    expect(task.error).not.toMatch(OPERATOR_WORDS);
    expect(log.lines).toHaveLength(1);
    expect(String(log.lines[0]!.fields!.detail)).toBe('fal.ai answered 401 to a submit call: Invalid key');
    expect(engine.unavailable?.()).toContain('401');
    const res = await submitAsync(t, user.apiKey);
    expect(res.status).toBe(503);
    const answer = (await res.json()) as { message?: string; msg?: string };
    expect(answer.message ?? answer.msg).toBe(FEATURE_MESSAGES.unavailable);
  });

  it('a locked account (403 "User is locked", exhausted balance) hands the task to the next engine of the chain', async () => {
    fal.fake.mode = 'locked';
    const { t, log, engine } = await appWith('test-key', 'fal|preview');
    const user = await createUser(t, 200);
    const task = await waitForTask(t, await submitTool(t, user.apiKey, 'text2video', { prompt: 'a fox' }));
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(task.engine).toBe('preview');
    expect(String(log.lines[0]!.fields!.detail)).toContain('User is locked. Reason: Exhausted balance');
    expect(engine.unavailable?.()).toContain('Exhausted balance');
    // Rendered by the preview engine on a machine shared with other work.
  }, 60_000);

  it("a refused input (422 FastAPI detail) fails the task as the input's fault, naming our field, without falling back", async () => {
    fal.fake.mode = 'invalid';
    const { t, engine } = await appWith('test-key', 'fal|preview');
    const user = await createUser(t, 100);
    const task = await expectFailedAndRefunded(
      t,
      user,
      await submitTool(t, user.apiKey, 'text2video', { prompt: 'a fox' }),
      'negativePrompt: ensure this value has at most 500 characters',
    );
    expect(task.engine).not.toBe('preview');
    expect(engine.unavailable?.()).toBeNull();
  });
});
