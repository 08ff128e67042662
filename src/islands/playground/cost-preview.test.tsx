// The cost preview on the real server: a run no AI model makes is shown free (and is free), one a model may make costs
// its price, both equal to what the server holds; the result names the engine that made it.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createTasksTestApp, createUser, testEngine, type TasksTestApp } from '../../../server/test-support/tasks';
import { ENGINE_LABELS, quote, TEXT_TO_VIDEO_OPTIONS } from '../../lib/product-rules';
import { forgetFeatures } from '../../lib/site/features';
import { resetPage, signInPage } from '../shared/page.fixtures';
import EngineLabel from './EngineLabel';
import SpeechScreen from './SpeechScreen';
import VideoScreen from './VideoScreen';

let t: TasksTestApp | null = null;

/** The real app (NO_MODEL_PRICE as given, '' for the default), a signed-in page, and the task queue running. */
async function start(env: Record<string, string>, engines = [testEngine({ name: 'model' })]) {
  t = await createTasksTestApp({ engines, env });
  await t.system.queue.start();
  await signInPage(t, await createUser(t, 50));
}

afterEach(async () => {
  forgetFeatures();
  if (t) await resetPage(t);
  t = null;
});

const flush = () => act(() => Promise.resolve());
const held = async () =>
  (await t!.database.db.selectFrom('tasks').select(['credits_held', 'credits_charged', 'status']).executeTakeFirst()) ??
  null;

describe('cost preview', () => {
  it('says before submit that a run with no AI model is free, holds nothing, and names the engine on the result', async () => {
    // eSpeak's worker thread cannot start under happy-dom: a test engine runs under its name (the real one is run for
    // the same checks in server/routes/features.test.ts).
    await start({ NO_MODEL_PRICE: '' }, [testEngine({ name: 'espeak' })]);
    render(<SpeechScreen />);
    await flush();
    const text = 'Free, because no AI model speaks it.';
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: text } });
    await waitFor(() =>
      expect(screen.getByTestId('cost-note').textContent).toContain(`Free here: ${ENGINE_LABELS.espeak}`),
    );
    expect(screen.getByTestId('cost').textContent).toBe('0');
    // The line under the text agrees: no list price beside a free run.
    expect(screen.getByTestId('char-count').parentElement!.textContent).toContain(`Free here: ${ENGINE_LABELS.espeak}`);
    fireEvent.click(screen.getByRole('button', { name: 'Generate speech' }));
    const card = within(await screen.findByTestId('run-card'));
    await card.findByText(/^Done · 0 credits charged/, {}, { timeout: 10_000 });
    expect(card.getByTestId('engine-label').textContent).toBe(`Made with ${ENGINE_LABELS.espeak}`);
    expect(await held()).toEqual({ credits_held: 0, credits_charged: 0, status: 'succeeded' });
    await waitFor(() => expect(screen.getByTestId('balance').textContent).toBe('50'));
  }, 20_000);

  it('shows the preview engine as free on the video screen before any file is chosen', async () => {
    await start({ NO_MODEL_PRICE: '' });
    render(<VideoScreen type="character" />);
    await flush();
    await waitFor(() =>
      expect(screen.getByTestId('cost-note').textContent).toContain('Free here: preview engine (no AI model)'),
    );
    expect(screen.getByTestId('cost').textContent).toBe('0');
  });

  /** The clip options' labels as shown, e.g. "4s · 512p 20 cr". */
  const optionLabels = () =>
    within(screen.getByRole('group', { name: 'Length and resolution' }))
      .getAllByRole('radio')
      .map((radio) => radio.closest('label')!.textContent);

  it('prices the clip options as the cost below does: "free" where no AI model makes the clip', async () => {
    await start({ NO_MODEL_PRICE: '' });
    render(<VideoScreen type="text" />);
    await flush();
    await waitFor(() => expect(screen.getByTestId('cost').textContent).toBe('0'));
    await waitFor(() =>
      expect(optionLabels()).toEqual(TEXT_TO_VIDEO_OPTIONS.map((o) => `${o.durationS}s · ${o.resolution} free`)),
    );
  });

  it('prices the clip options at the list price when NO_MODEL_PRICE=full', async () => {
    await start({ NO_MODEL_PRICE: 'full' });
    render(<VideoScreen type="text" />);
    await flush();
    await waitFor(() =>
      expect(optionLabels()).toEqual(
        TEXT_TO_VIDEO_OPTIONS.map((o) => `${o.durationS}s · ${o.resolution} ${quote(o.itemId)} cr`),
      ),
    );
  });

  it('gives the §9 price and no note when an AI model may make the run, and the server holds exactly that', async () => {
    await start({ NO_MODEL_PRICE: '', ENGINES: 'tts-common=model|espeak' });
    render(<SpeechScreen />);
    await flush();
    const text = 'A model speaks this one. '.repeat(20);
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: text } });
    const price = quote('tts-common', { characters: text.trim().length });
    await waitFor(() => expect(screen.getByTestId('cost').textContent).toBe(String(price)));
    expect(screen.queryByTestId('cost-note')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Generate speech' }));
    await waitFor(async () => expect((await held())?.credits_held).toBe(price));
  });

  it('gives the §9 price for the offline engines too when NO_MODEL_PRICE=full', async () => {
    await start({ NO_MODEL_PRICE: 'full' });
    render(<SpeechScreen />);
    await flush();
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'x'.repeat(251) } });
    await waitFor(() => expect(screen.getByTestId('cost').textContent).toBe('2'));
    expect(screen.queryByTestId('cost-note')).toBeNull();
  });
});

describe('EngineLabel', () => {
  it('shows the label the server gives, or the engine name, or nothing', () => {
    const { container, rerender } = render(
      <EngineLabel task={{ engine: 'preview', engineLabel: ENGINE_LABELS.preview }} />,
    );
    expect(container.textContent).toBe('Made with preview engine (no AI model)');
    rerender(<EngineLabel task={{ engine: 'fal', engineLabel: ENGINE_LABELS.fal }} compact />);
    expect(container.textContent).toBe('fal.ai');
    rerender(<EngineLabel task={{ engine: '', engineLabel: '' }} />);
    expect(container.textContent).toBe('');
  });
});
