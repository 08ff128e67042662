// fal queue calls against the fake: a finished job's result read survives a 502, a submit that may have reached fal is
// never sent twice, job URLs use owner/alias.
import { describe, expect, it } from 'vitest';
import { createUser, waitForTask } from '../../test-support/tasks';
import { submitTool } from '../../test-support/customer-calls';
import { expectFailedAndRefunded } from '../../test-support/task-outcomes';
import { expectCharged } from '../../test-support/ledger';
import { listPrice } from '../../../src/lib/product-rules';
import { FAL_MODELS } from '../../../src/lib/product-rules';
import { falAppPath } from './fal';
import { PRICE, useFalFake } from './fal.fixtures';

const fal = useFalFake();
const { app, submitText } = fal;
const submitsTo = (model: string) => fal.fake.calls.filter((c) => c.method === 'POST' && c.path === `/${model}`);

describe('fal queue calls', { timeout: 30_000 }, () => {
  it('a 502 on the result read of a finished job is retried with backoff: the task succeeds, charged once', async () => {
    fal.fake.mode = 'result-502';
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(t, await submitText(t, user.apiKey));
    expect(task.status, task.error ?? '').toBe('succeeded');
    const [reads] = [...fal.fake.resultCalls.values()];
    expect(reads).toBe(2);
    expect(submitsTo(FAL_MODELS.textToVideo)).toHaveLength(1);
    await expectCharged(t, user, PRICE);
  });

  it('a submit answered 502 is not sent again (fal may have queued it): one submission, the task fails saying why, refunded', async () => {
    fal.fake.mode = 'submit-502';
    const t = await app();
    const user = await createUser(t, 100);
    const task = await expectFailedAndRefunded(t, user, await submitText(t, user.apiKey), 'not sent again');
    expect(task.error).toContain('502');
    expect(submitsTo(FAL_MODELS.textToVideo)).toHaveLength(1);
  });

  it('a submit answer without URLs: status and result are read at owner/alias, not under the full model path', async () => {
    fal.fake.mode = 'bare';
    const t = await app();
    const user = await createUser(t, 100);
    const task = await waitForTask(
      t,
      await submitTool(t, user.apiKey, 'image_generation', { prompt: 'a lighthouse at dusk', count: 1 }),
    );
    expect(task.status, task.error ?? '').toBe('succeeded');
    expect(FAL_MODELS.imageGeneration).toBe('fal-ai/flux/schnell');
    const reads = fal.fake.calls.filter((c) => c.method === 'GET' && c.path.includes('/requests/')).map((c) => c.path);
    expect(reads.length).toBeGreaterThanOrEqual(2);
    expect(reads.every((p) => p.startsWith('/fal-ai/flux/requests/'))).toBe(true);
    expect(reads.some((p) => p.endsWith('/status'))).toBe(true);
    expect(task.credits_charged).toBe(listPrice('image-generation', { count: 1 }).credits);
  });

  it('the app part of an endpoint id is its first two segments (three for a namespace), as fal-js parses it', () => {
    expect(falAppPath('fal-ai/kling/v1-5/kolors-virtual-try-on')).toBe('fal-ai/kling');
    expect(falAppPath('fal-ai/wan-t2v')).toBe('fal-ai/wan-t2v');
    expect(falAppPath('workflows/someone/flow/extra')).toBe('workflows/someone/flow');
  });
});
