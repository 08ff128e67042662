// The upload field with the server's media in a bucket (real s3rver): the file goes straight to the bucket, the server
// checks it on finish.
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeBrowserTo, type RoutedBrowser } from '../../../server/test-support/browser';
import { startTestS3, type TestS3 } from '../../../server/test-support/s3';
import { createTasksTestApp, createUser, type TasksTestApp, type TestUser } from '../../../server/test-support/tasks';
import type { UserInfo } from '../../lib/api';
import { DIRECT_UPLOADS, STORAGE_KEYS } from '../../lib/product-rules';
import { resetModals } from '../../lib/stores/modals';
import { $user } from '../../lib/stores/signed-in';
import type { UploadedMedia } from './api';
import { ChosenField, PIXEL } from './drop-zone.fixtures';

const prefix = 'playground/';

let s3: TestS3;
let t: TasksTestApp;
let user: TestUser;
let net: RoutedBrowser;
let chosen: Array<UploadedMedia | null>;

beforeAll(async () => {
  s3 = await startTestS3();
  t = await createTasksTestApp({ env: s3.env(prefix) });
  user = await createUser(t, 0);
});
afterAll(async () => {
  await t.close();
  await s3.close();
});
beforeEach(() => {
  net = routeBrowserTo(t.app);
  localStorage.setItem(STORAGE_KEYS.userToken, user.token);
  $user.set({ userId: user.id } as UserInfo);
  chosen = [];
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  resetModals();
  $user.set(undefined);
});

const choose = (container: HTMLElement, file: File) =>
  act(
    async () =>
      void fireEvent.change(container.querySelector<HTMLInputElement>('input[type="file"]')!, {
        target: { files: [file] },
      }),
  );

describe('DropZone with media in a bucket', () => {
  it('sends the file to the bucket with the policy (its own type, the file last, no session), and shows what the server recorded', async () => {
    const { container } = render(<ChosenField kinds={['image']} chosen={chosen} />);
    await choose(container, new File([PIXEL], 'pixel.png', { type: 'image/png' }));
    await waitFor(() => expect(chosen).toHaveLength(1));
    expect(chosen[0]).toMatchObject({ kind: 'image', mime: 'image/png', size: PIXEL.length });
    expect(net.bodiesTo('/api-playground/file/v1/upload')).toEqual([]);
    const [toBucket] = net.sent.filter((r) => r.path === `/${s3.bucket}`);
    const fields = toBucket!.body as Record<string, unknown>;
    expect(Object.keys(fields).at(-1)).toBe('file');
    expect(fields['Content-Type']).toBe('image/png');
    expect(String(fields.key)).toMatch(new RegExp(`^${prefix}${DIRECT_UPLOADS.incomingFolder}`));
    expect(toBucket!.headers).not.toHaveProperty('token');
    const row = (await t.system.media.byId(chosen[0]!.id))!;
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    try {
      expect(
        (await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `${prefix}${row.storage_key}` })))
          .ContentType,
      ).toBe('image/png');
    } finally {
      client.destroy();
    }
    expect(container.querySelector('img')?.getAttribute('src')).toBe(chosen[0]!.url);
  });

  it("shows the server's refusal of what reached the bucket", async () => {
    const { container } = render(<ChosenField kinds={['image']} chosen={chosen} />);
    await choose(container, new File(['definitely not a picture'], 'fake.png', { type: 'image/png' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('not a recognised media file');
    expect(chosen).toEqual([]);
  });
});
