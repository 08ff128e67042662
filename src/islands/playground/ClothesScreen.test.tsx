// The clothes changer on the real server: what to fix, and the request for separates or a one-piece, held at the
// previewed price.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// Renamed: the React hooks rule would take a vitest helper whose name starts with `use` for a hook.
import { stillImage, useTestMedia as makeTestMedia } from '../../../server/test-support/lavfi-media';
import { createTasksTestApp, testEngine, uploadAs } from '../../../server/test-support/tasks';
import { signedInPageEachTest } from '../shared/page.fixtures';
import type { UploadedMedia } from './api';
import ClothesScreen from './ClothesScreen';
import { writeDraft } from './draft';
import { costOf } from './pricing';

const CLOTHES = '/api-playground/clothes_changer/v1/create_task';
const files = makeTestMedia('clothes-screen-', { photo: stillImage('photo.png') });

// Try-on has no offline engine, so a test engine serves it. The queue is not started: the submitted task stays
// queued, which is all these tests need.
const page = signedInPageEachTest(100, () =>
  createTasksTestApp({
    engines: [testEngine({ name: 'tryon', features: ['tryon-clothes'] })],
    env: { ENGINES: 'tryon-clothes=tryon' },
  }),
);

const upload = (name: string) => uploadAs(page.t, page.user, readFileSync(files.photo), name, 'image/png');
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Change clothes' }));

async function open(
  draft: Partial<Record<'model' | 'upper' | 'lower' | 'onePiece', UploadedMedia>> & { mode?: string } = {},
) {
  writeDraft('alClothesChanger', {
    model: null,
    mode: 'separates',
    upper: null,
    lower: null,
    onePiece: null,
    ...draft,
  });
  render(<ClothesScreen />);
  await act(() => Promise.resolve());
}

describe('ClothesScreen', () => {
  it('asks for the model photo, then for a garment', async () => {
    await open();
    submit();
    expect(screen.getByRole('alert').textContent).toBe('Model photo: upload a full-body photo of the person.');
    cleanup();
    // A one-piece garment does not count while separates are chosen.
    await open({ model: await upload('model.png'), onePiece: await upload('dress.png') });
    submit();
    expect(screen.getByRole('alert').textContent).toBe('Garments: upload at least one garment photo.');
    expect(page.net.bodiesTo(CLOTHES)).toEqual([]);
  });

  it('sends the model with the upper garment alone; the server holds the previewed price', async () => {
    const model = await upload('model.png');
    const upper = await upload('shirt.png');
    await open({ model, upper });
    expect(screen.getByTestId('cost').textContent).toBe(String(costOf('tryon-clothes', {})));
    submit();
    await waitFor(() =>
      expect(page.net.bodiesTo(CLOTHES)).toEqual([{ modelImageUrl: model.url, upperUrl: upper.url }]),
    );
    await waitFor(async () =>
      expect(await page.t.database.db.selectFrom('tasks').select(['feature', 'credits_held']).execute()).toEqual([
        { feature: 'tryon-clothes', credits_held: costOf('tryon-clothes', {}) },
      ]),
    );
  });

  it('in one-piece mode sends only the one-piece garment', async () => {
    const model = await upload('model.png');
    const upper = await upload('shirt.png');
    const onePiece = await upload('dress.png');
    await open({ model, upper });
    fireEvent.click(screen.getByRole('radio', { name: 'One-piece' }));
    expect(screen.queryByText('Upper garment')).toBeNull();
    cleanup();
    await open({ model, upper, onePiece, mode: 'onePiece' });
    submit();
    await waitFor(() =>
      expect(page.net.bodiesTo(CLOTHES)).toEqual([{ modelImageUrl: model.url, onePieceUrl: onePiece.url }]),
    );
  });
});
