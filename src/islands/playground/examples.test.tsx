// Examples before the first run, on the real server: each screen lists its outputs, "Try an example" fills the form
// (uploading an example's files as the person's own), a guest is asked to log in first for files, and the first run
// puts them away.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeBrowserTo, type RoutedBrowser } from '../../../server/test-support/browser';
import { createTasksTestApp, createUser, type TasksTestApp, type TestUser } from '../../../server/test-support/tasks';
import { exampleMedia, EXAMPLES_MAX_BYTES, examplesOf, PLAYGROUND_EXAMPLES } from '../../lib/product-rules';
import { forgetFeatures } from '../../lib/site/features';
import { $modal, resetModals } from '../../lib/stores/modals';
import { resetPage, signInPage } from '../shared/page.fixtures';
import SpeechScreen from './SpeechScreen';
import VideoScreen from './VideoScreen';

let t: TasksTestApp;
let user: TestUser;
let net: RoutedBrowser;

/** The site's static files: public/examples/ answers as the built site would. */
function serveExamples() {
  const routed = globalThis.fetch;
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) =>
    String(input).startsWith('/examples/')
      ? Promise.resolve(new Response(readFileSync(`public${String(input)}`)))
      : routed(input, init),
  );
}

beforeEach(async () => {
  t = await createTasksTestApp();
  user = await createUser(t, 1000);
  forgetFeatures();
});
afterEach(async () => {
  resetModals();
  await resetPage(t);
});

const flush = () => act(() => Promise.resolve());
/** The examples card, once its lazy chunk has loaded. */
const examples = async () => within(await screen.findByTestId('examples', {}, { timeout: 10_000 }));

describe('examples', () => {
  it('the speech screen shows its examples, and trying one fills text, voice and advanced settings, which the run sends', async () => {
    net = await signInPage(t, user);
    render(<SpeechScreen />);
    await flush();
    const shown = examplesOf('speech');
    expect((await examples()).getAllByTestId('example-audio').map((a) => a.getAttribute('src'))).toEqual(
      shown.map((e) => e.output),
    );
    const news = shown.find((e) => e.id === 'speech-news')!;
    fireEvent.click((await examples()).getByRole('button', { name: `Try an example: ${news.title}` }));
    expect((screen.getByLabelText('Text') as HTMLTextAreaElement).value).toBe(news.inputs.text);
    expect((screen.getByRole('radio', { name: /Oliver/ }) as HTMLInputElement).checked).toBe(true);
    // The settings show once the server said eSpeak honours them.
    await waitFor(() => expect(screen.getByLabelText(/^Pitch: 35/)).toBeTruthy());
    expect(screen.getByLabelText(/^Speed: 140/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Generate speech' }));
    await waitFor(() =>
      expect(net.bodiesTo('/api-playground/speech/v1/tts')).toEqual([
        { text: news.inputs.text, voiceId: 'en-gb-male-1', quality: 'common', speed: 140, pitch: 35 },
      ]),
    );
    // Examples are for before the first run: the run's card takes their place.
    await waitFor(() => expect(screen.queryByTestId('examples')).toBeNull());
  });

  it('an example with a picture uploads it as the person’s own and fills the image and prompt of the form', async () => {
    net = await signInPage(t, user);
    serveExamples();
    render(<VideoScreen type="image" />);
    await flush();
    const sunset = PLAYGROUND_EXAMPLES.find((e) => e.id === 'image-sunset')!;
    fireEvent.click((await examples()).getByRole('button', { name: `Try an example: ${sunset.title}` }));
    await waitFor(() => expect(net.bodiesTo('/api-playground/file/v1/upload')).toHaveLength(1));
    expect(net.bodiesTo('/api-playground/file/v1/upload')[0]).toMatchObject({
      scene: 'image',
      file: { name: 'sunset.png', type: 'image/png' },
    });
    await waitFor(() =>
      expect((screen.getByLabelText('Prompt') as HTMLTextAreaElement).value).toBe(sunset.inputs.prompt),
    );
    expect(screen.getByRole('radio', { name: /4s · 512p/ })).toHaveProperty('checked', true);
    expect(screen.getByText(/^image · \d+ KB/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Generate video' }));
    await waitFor(() => expect(net.bodiesTo('/api-playground/video_tools/v1/animate_video')).toHaveLength(1));
    const [media] = await t.database.db.selectFrom('media').select(['user_id', 'mime']).execute();
    expect(media).toEqual({ user_id: user.id, mime: 'image/png' });
    expect(net.bodiesTo('/api-playground/video_tools/v1/animate_video')[0]).toMatchObject({
      type: 'image',
      prompt: sunset.inputs.prompt,
      resolution: '512p',
      duration: 4,
    });
  });

  it('asks a guest to log in before an example with files, and uploads nothing', async () => {
    net = routeBrowserTo(t.app);
    render(<VideoScreen type="image" />);
    await flush();
    fireEvent.click((await examples()).getByRole('button', { name: /^Try an example: / }));
    expect($modal.get()).toBe('login');
    expect(net.bodiesTo('/api-playground/file/v1/upload')).toEqual([]);
  });
});

describe('the example files', () => {
  it('every example names a file that exists in public/, and all of them stay small', () => {
    let total = 0;
    for (const e of PLAYGROUND_EXAMPLES) {
      for (const src of [e.output, ...(e.files ?? []).map((f) => f.src)]) {
        const bytes = readFileSync(`public${src}`);
        total += bytes.length;
        expect(bytes.length, src).toBeGreaterThan(1000);
        expect(exampleMedia(src).kind).toBeTruthy();
      }
    }
    expect(total).toBeLessThan(EXAMPLES_MAX_BYTES);
  });
});
