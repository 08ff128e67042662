// Sharing from the history on the real server: opt in per result, pick a lifetime, copy the public link, revoke it.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createTasksTestApp, testEngine, waitForTask } from '../../../server/test-support/tasks';
import { SHARE_LINKS } from '../../lib/product-rules';
import History from './History';
import { signedInPageEachTest } from '../shared/page.fixtures';

const page = signedInPageEachTest(50, async () => {
  const app = await createTasksTestApp({
    engines: [testEngine({ name: 'ok', features: ['tts-common'] })],
    env: { ENGINES: 'tts-common=ok', SITE_URL: 'https://site.example' },
  });
  await app.system.queue.start();
  return app;
});

describe('ShareLinks', () => {
  it('creates a public link with the chosen lifetime, copies it and revokes it', async () => {
    const res = await page.t.app.request('/api-playground/speech/v1/tts', {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: page.user.token },
      body: JSON.stringify({ text: 'Share me', voiceId: 'en-us-female-1' }),
    });
    const taskId = ((await res.json()) as { data: { taskId: string } }).data.taskId;
    await waitForTask(page.t, taskId);
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });

    render(<History features={['tts-common']} screen="speech" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Share' }));
    const panel = await screen.findByRole('region', { name: 'Share Speech · Common' });
    expect(panel.textContent).toContain('Anyone with a link can see this result');
    fireEvent.click(within(panel).getByLabelText('7 days'));
    fireEvent.click(within(panel).getByRole('button', { name: 'Create link' }));
    const link = (await within(panel).findByLabelText('Share link')) as HTMLInputElement;
    expect(link.value).toMatch(new RegExp(`^https://site\\.example${SHARE_LINKS.pagePath}\\?t=`));
    expect(page.net.bodiesTo('/share/v1/create')).toEqual([{ taskId, days: 7 }]);

    fireEvent.click(within(panel).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(link.value));

    const token = new URL(link.value).searchParams.get('t')!;
    expect((await page.t.app.request(`/share/v1/view?t=${token}`)).status).toBe(200);
    fireEvent.click(within(panel).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(within(panel).queryByLabelText('Share link')).toBeNull());
    expect((await page.t.app.request(`/share/v1/view?t=${token}`)).status).toBe(404);
  });
});
