// The upload field on the real server: guests sign in first, files are checked before sending, uploads show progress
// and the result.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeBrowserTo, type RoutedBrowser } from '../../../server/test-support/browser';
import { createTasksTestApp, createUser, type TasksTestApp, type TestUser } from '../../../server/test-support/tasks';
import type { UserInfo } from '../../lib/api';
import { STORAGE_KEYS } from '../../lib/product-rules';
import { $modal, resetModals } from '../../lib/stores/modals';
import { $user } from '../../lib/stores/signed-in';
import type { UploadedMedia } from './api';
import { ChosenField, PIXEL } from './drop-zone.fixtures';
import { acceptOf, describeLimits } from './media-check';

const UPLOAD = '/api-playground/file/v1/upload';

let t: TasksTestApp;
let user: TestUser;
let net: RoutedBrowser;
let releaseUploads: () => void;
let chosen: Array<UploadedMedia | null>;

beforeEach(async () => {
  t = await createTasksTestApp();
  user = await createUser(t, 0);
  net = routeBrowserTo(t.app, { holdUploads: new Promise<void>((resolve) => (releaseUploads = resolve)) });
  localStorage.setItem(STORAGE_KEYS.userToken, user.token);
  $user.set({ userId: user.id } as UserInfo);
  chosen = [];
});
afterEach(async () => {
  releaseUploads();
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
  resetModals();
  $user.set(undefined);
  await t.close();
});

const input = (container: HTMLElement) => container.querySelector<HTMLInputElement>('input[type="file"]')!;
const choose = (container: HTMLElement, file: File) =>
  act(async () => void fireEvent.change(input(container), { target: { files: [file] } }));

describe('DropZone', () => {
  it('offers the accepted types and says the limits', () => {
    const { container } = render(<ChosenField kinds={['image', 'video']} chosen={chosen} />);
    expect(input(container).getAttribute('accept')).toBe(acceptOf(['image', 'video']));
    expect(screen.getByText(`${describeLimits('image')} · ${describeLimits('video')}`)).toBeTruthy();
  });

  it('uploads a chosen image with a progress bar, then shows it and hands it to the screen', async () => {
    const { container } = render(<ChosenField kinds={['image']} chosen={chosen} />);
    await choose(container, new File([PIXEL], 'pixel.png', { type: 'image/png' }));
    expect(await screen.findByRole('progressbar', { name: 'Uploading Picture' })).toBeTruthy();
    releaseUploads();
    await waitFor(() => expect(chosen).toHaveLength(1));
    const media = chosen[0]!;
    expect(media).toMatchObject({ kind: 'image', mime: 'image/png', size: PIXEL.length });
    expect(net.bodiesTo(UPLOAD)).toEqual([
      { scene: 'image', file: { name: 'pixel.png', type: 'image/png', size: PIXEL.length } },
    ]);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(container.querySelector('img')?.getAttribute('src')).toBe(media.url);
    expect(screen.getByText('image · 0 KB')).toBeTruthy();
    const stored = await t.database.db.selectFrom('media').select(['user_id', 'kind']).execute();
    expect(stored).toEqual([{ user_id: user.id, kind: 'image' }]);

    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(chosen.at(-1)).toBeNull();
    expect(screen.getByText('browse')).toBeTruthy();
  });

  it('takes a dropped file the same way', async () => {
    const { container } = render(<ChosenField kinds={['image']} chosen={chosen} />);
    releaseUploads();
    const zone = screen.getByText('browse').closest('div')!;
    await act(
      async () =>
        void fireEvent.drop(zone, {
          dataTransfer: { files: [new File([PIXEL], 'dropped.png', { type: 'image/png' })] },
        }),
    );
    await waitFor(() => expect(chosen).toHaveLength(1));
    expect(net.bodiesTo(UPLOAD)).toEqual([
      { scene: 'image', file: { name: 'dropped.png', type: 'image/png', size: PIXEL.length } },
    ]);
    expect(container.querySelector('img')).not.toBeNull();
  });

  it('asks a guest to log in instead of uploading', async () => {
    $user.set(null);
    const { container } = render(<ChosenField kinds={['image']} chosen={chosen} />);
    await choose(container, new File([PIXEL], 'pixel.png', { type: 'image/png' }));
    expect(screen.getByRole('alert').textContent).toBe('Log in to upload files.');
    expect($modal.get()).toBe('login');
    expect(net.sent).toEqual([]);
  });

  it('refuses a type the field does not take, before sending anything', async () => {
    const { container } = render(<ChosenField kinds={['audio']} label="Voice" chosen={chosen} />);
    await choose(container, new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    expect(screen.getByRole('alert').textContent).toBe(
      `This file type is not accepted here. Choose ${describeLimits('audio')}.`,
    );
    expect(net.sent).toEqual([]);
  });

  it('refuses audio longer than the limit, read from its metadata, before sending anything', async () => {
    const create = document.createElement.bind(document);
    vi.spyOn(document, 'createElement').mockImplementation((tag: string, options?: ElementCreationOptions) => {
      const el = create(tag, options);
      // Plays the browser's part: the metadata says the recording lasts 400 s.
      if (el instanceof HTMLMediaElement) {
        Object.defineProperty(el, 'duration', { value: 400 });
        queueMicrotask(() => el.dispatchEvent(new Event('loadedmetadata')));
      }
      return el;
    });
    const { container } = render(<ChosenField kinds={['audio']} label="Voice" chosen={chosen} />);
    await choose(container, new File([new Uint8Array(1000)], 'long.wav', { type: 'audio/wav' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'This audio is 400 s long; the limit is 300 s. Trim it and try again.',
      ),
    );
    expect(net.sent).toEqual([]);
  });

  it("shows the server's refusal and lets the person choose again", async () => {
    const { container } = render(<ChosenField kinds={['image']} chosen={chosen} />);
    releaseUploads();
    // Says PNG, but the bytes are not an image: the server's own check refuses it.
    await choose(container, new File(['definitely not a picture'], 'fake.png', { type: 'image/png' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/\. Choose the file again to retry\.$/);
    expect(net.bodiesTo(UPLOAD)).toHaveLength(1);
    expect(chosen).toEqual([]);
    expect(input(container).value).toBe('');
  });
});
