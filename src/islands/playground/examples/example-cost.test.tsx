// An example says what running it costs on this server before anything runs, and the form it fills then shows the
// same cost beside the run button (charged in full, or free on an engine with no AI model).
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createTasksTestApp, createUser, type TasksTestApp } from '../../../../server/test-support/tasks';
import { examplesOf } from '../../../lib/product-rules';
import { forgetFeatures } from '../../../lib/site/features';
import { resetModals } from '../../../lib/stores/modals';
import { resetPage, signInPage } from '../../shared/page.fixtures';
import SpeechScreen from '../SpeechScreen';

let t: TasksTestApp;
afterEach(async () => {
  resetModals();
  await resetPage(t);
});

async function open(price: 'free' | 'full') {
  t = await createTasksTestApp({ env: { ENGINES: 'tts-common=espeak', NO_MODEL_PRICE: price } });
  forgetFeatures();
  await signInPage(t, await createUser(t, 1000));
  render(<SpeechScreen />);
  await act(() => Promise.resolve());
  const welcome = examplesOf('speech').find((e) => e.id === 'speech-welcome')!;
  const card = await screen.findByRole('button', { name: `Try an example: ${welcome.title}` }, { timeout: 10_000 });
  return { item: within(card.closest('li')!), card };
}

describe('what an example costs', () => {
  it('a charged run: the example names its credits, and the filled form shows the same cost, running nothing', async () => {
    const { item, card } = await open('full');
    await waitFor(() => expect(item.getByTestId('example-cost').textContent).toMatch(/^Running it: \d+ credits?\./));
    const credits = /(\d+)/.exec(item.getByTestId('example-cost').textContent!)![1];
    expect(item.getByTestId('example-cost').textContent).toContain('nothing runs or is charged until you press');
    fireEvent.click(card);
    expect(screen.getByTestId('cost').textContent).toBe(credits);
    expect(await t.database.db.selectFrom('tasks').select('id').execute()).toEqual([]);
  });

  it('a run free here (no AI model, NO_MODEL_PRICE=free) says so, as the cost line does', async () => {
    const { item, card } = await open('free');
    await waitFor(() => expect(item.getByTestId('example-cost').textContent).toContain('Running it: free here.'));
    fireEvent.click(card);
    await waitFor(() => expect(screen.getByTestId('cost').textContent).toBe('0'));
  });
});
