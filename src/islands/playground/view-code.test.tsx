// View code on the speech screen against the real server: the code follows the form, masks the key until revealed,
// copies with the real key, shows the cost the screen shows, and the copied call run with that key makes the task the
// screen would.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeBrowserTo } from '../../../server/test-support/browser';
import { createTasksTestApp, createUser, type TasksTestApp, type TestUser } from '../../../server/test-support/tasks';
import { forgetFeatures } from '../../lib/site/features';
import { SDK_PACKAGE } from '../../lib/product-rules';
import { $apiKey } from '../../lib/stores/signed-in';
import { resetPage, signInPage } from '../shared/page.fixtures';
import SpeechScreen from './SpeechScreen';

let t: TasksTestApp;
let user: TestUser;
let writeText: ReturnType<typeof vi.fn>;

beforeEach(async () => {
  t = await createTasksTestApp();
  user = await createUser(t, 100);
  await signInPage(t, user);
  forgetFeatures();
  writeText = vi.fn(() => Promise.resolve());
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});
afterEach(async () => {
  $apiKey.set(null);
  await resetPage(t);
});

const code = () => screen.getByTestId('run-code').textContent ?? '';
const tab = (name: string) => within(screen.getByRole('tablist', { name: 'Code language' })).getByRole('tab', { name });

/** The JSON body of a curl sample (its -d '…' argument). */
function curlBody(sample: string): Record<string, unknown> {
  const quoted = /-d '((?:[^']|'\\'')*)'/.exec(sample)![1]!;
  return JSON.parse(quoted.replaceAll(`'\\''`, `'`)) as Record<string, unknown>;
}

describe('View code', () => {
  it('shows the call of the current inputs, updates as the form changes, masks the key and copies it with the real key', async () => {
    render(<SpeechScreen />);
    await act(() => Promise.resolve());
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: "It's a test" } });
    expect(screen.queryByTestId('code-panel')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'View code' }));
    await screen.findByTestId('code-panel', {}, { timeout: 10_000 });

    expect(code()).toContain(`/api/async/do_tts_common'`);
    expect(curlBody(code())).toEqual({ text: "It's a test", audioId: 'en-us-female-1' });
    // The key arrives from /apply/playground and is shown masked.
    await waitFor(() => expect(code()).toContain('Authorization: Bearer '));
    await waitFor(() => expect(code()).toMatch(/Bearer sk-•{5}[\w-]{4}\b/));
    expect(code()).not.toContain(user.apiKey);

    // Live: the text, the voice and the quality flow into the call.
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'Second words' } });
    fireEvent.click(screen.getByRole('radio', { name: /Noah/ }));
    fireEvent.click(screen.getByRole('radio', { name: 'Pro' }));
    expect(code()).toContain('/api/async/do_tts_pro');
    expect(curlBody(code())).toEqual({ text: 'Second words', audioId: 'en-us-male-1' });
    expect(screen.getByTestId('code-cost').textContent).toBe(screen.getByTestId('cost').textContent);

    fireEvent.click(screen.getByRole('button', { name: 'Reveal key' }));
    expect(code()).toContain(`Bearer ${user.apiKey}`);
    fireEvent.click(screen.getByRole('button', { name: 'Hide key' }));

    // The SDK by its package name (installable from this server too), waiting over the live status stream.
    fireEvent.click(tab('JavaScript (SDK)'));
    expect(code()).toContain(`npm install ${SDK_PACKAGE.name}`);
    expect(code()).toContain(`${SDK_PACKAGE.tarballPath})`);
    expect(code()).toContain(`import { createDreamApiClient } from "${SDK_PACKAGE.name}";`);
    expect(code()).toContain(
      'const { taskId } = await client.ttsPro({\n  "text": "Second words",\n  "audioId": "en-us-male-1"\n});',
    );
    expect(code()).toContain('await client.wait(taskId)');
    // Without the SDK: plain fetch, polling getAsyncResult until the task ends.
    fireEvent.click(tab('JavaScript (fetch)'));
    expect(code()).toContain(
      'await api("/api/async/do_tts_pro", {\n  "text": "Second words",\n  "audioId": "en-us-male-1"\n});',
    );
    expect(code()).toContain('while (result.task.status < 3)');
    // Python waits for the result too.
    fireEvent.click(tab('Python'));
    expect(code()).toContain('requests.post(');
    expect(code()).toContain('"audioId": "en-us-male-1"');
    expect(code()).toContain('while result["task"]["status"] < 3:');
    expect(code()).toContain('print(result["audios"][0]["audioUrl"])');

    fireEvent.click(tab('curl'));
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(1));
    const copied = String(writeText.mock.calls[0]![0]);
    expect(copied).toContain(`Bearer ${user.apiKey}`);
    expect(within(screen.getByTestId('code-panel')).getByRole('status').textContent).toBe('Copied with your key');

    // The copied call, sent with the key it carries, makes the task the screen's own submit makes.
    const res = await t.app.request('/api/async/do_tts_pro', {
      method: 'POST',
      headers: { authorization: `Bearer ${user.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(curlBody(copied)),
    });
    expect(res.status).toBe(200);
    fireEvent.click(screen.getByRole('button', { name: 'Generate speech' }));
    await waitFor(async () =>
      expect(
        await t.database.db.selectFrom('tasks').select(['feature', 'input', 'source']).orderBy('created_at').execute(),
      ).toHaveLength(2),
    );
    const [api, playground] = await t.database.db
      .selectFrom('tasks')
      .select(['feature', 'input', 'source'])
      .orderBy('created_at')
      .execute();
    expect(api!.source).toBe('api');
    expect(playground!.source).toBe('playground');
    expect(api!.feature).toBe(playground!.feature);
    expect(JSON.parse(api!.input)).toEqual(JSON.parse(playground!.input));
  });

  it('loads the panel only when opened, and tells a guest where their key would be', async () => {
    await resetPage(t);
    t = await createTasksTestApp();
    routeBrowserTo(t.app);
    render(<SpeechScreen />);
    await act(() => Promise.resolve());
    fireEvent.click(screen.getByRole('button', { name: 'View code' }));
    await screen.findByTestId('code-panel', {}, { timeout: 10_000 });
    expect(code()).toContain('Authorization: Bearer YOUR_API_KEY');
    expect(screen.queryByRole('button', { name: 'Reveal key' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Hide code' }));
    expect(screen.queryByTestId('code-panel')).toBeNull();
  });
});
