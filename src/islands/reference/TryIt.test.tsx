// Try it on the reference: a charged call shows its cost and asks first (the question every paid action asks), a
// call this server runs free is sent at once and says why; a new request clears the last answer.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '../../lib/api';
import type { SampleSpec } from '../../lib/reference/samples';
import { $apiKey, $user } from '../../lib/stores/signed-in';
import { $offer, FEATURES_PATH, forgetOffer } from '../../lib/stores/offer';
import type { FeatureState } from '../../lib/api';
import TryIt from './TryIt';

/** A JSON POST with a bearer key whose answer comes in the envelope, as the two calls tried here are. */
const post = (path: string, example: Record<string, unknown>): SampleSpec => ({
  method: 'post',
  path,
  auth: 'bearer',
  contentType: 'application/json',
  example,
  envelope: true,
});
const textToVideo = post('/api/async/text2video', { prompt: 'A lighthouse at dawn' });
const result = post('/api/getAsyncResult', { taskId: 'b3c1e9a4-7d2f-4c8e-9a51-6f0d2e8b4c17' });

/** How this server runs text to video in a test: on the preview engine (no AI model), free or at the full price. */
let textToVideoHere: Pick<FeatureState, 'usesModel' | 'noModelPrice'>;
const offerAnswer = () => ({
  code: 0,
  data: {
    list: [
      {
        feature: 'text-to-video',
        available: true,
        engine: 'preview',
        engineLabel: 'preview engine (no AI model)',
        priceNote: '',
        ...textToVideoHere,
      },
    ],
  },
});

let answers: Array<(body: string) => void>;
/** Requests Try it sent (the offer answer the page reads is not one of them). */
const sent = () => fetchMock.mock.calls.filter(([url]) => !String(url).endsWith(FEATURES_PATH));
const fetchMock = vi.fn((url: string) =>
  url.endsWith(FEATURES_PATH)
    ? Promise.resolve(new Response(JSON.stringify(offerAnswer())))
    : new Promise<Response>((resolve) => answers.push((body) => resolve(new Response(body, { status: 200 })))),
);

beforeEach(() => {
  textToVideoHere = { usesModel: true, noModelPrice: 'free' };
  forgetOffer();
  answers = [];
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
  $user.set({ userId: 'u1', userEmail: 'ada@example.com' } as UserInfo);
  $apiKey.set('sk-test');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  $user.set(undefined);
  $apiKey.set(null);
});

const send = () => fireEvent.click(screen.getByRole('button', { name: 'Send request' }));

describe('TryIt', () => {
  it('a submit says what it costs and sends nothing until confirmed; Cancel sends nothing', async () => {
    render(<TryIt spec={textToVideo} baseUrl="https://api.example.com" />);
    await waitFor(() => expect($offer.get()).not.toBeNull());
    send();
    // The same question Run again asks, with the confirm button focused.
    const ask = screen.getByTestId('paid-confirm');
    expect(ask.textContent).toContain('up to 60 credits');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Send and spend 60 credits' }));
    expect(sent()).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('group')).toBeNull();
    expect(sent()).toEqual([]);
    send();
    fireEvent.click(screen.getByRole('button', { name: 'Send and spend 60 credits' }));
    expect(sent()).toHaveLength(1);
  });

  it('a call this server runs free (no AI model, NO_MODEL_PRICE=free) says so and is sent at once', async () => {
    textToVideoHere = { usesModel: false, noModelPrice: 'free' };
    render(<TryIt spec={textToVideo} baseUrl="https://api.example.com" />);
    expect((await screen.findByTestId('tryit-free')).textContent).toBe('Free here: preview engine (no AI model)');
    send();
    expect(screen.queryByTestId('paid-confirm')).toBeNull();
    expect(sent()).toHaveLength(1);
  });

  it('a no-model run this server charges in full is asked about like any paid call', async () => {
    textToVideoHere = { usesModel: false, noModelPrice: 'full' };
    render(<TryIt spec={textToVideo} baseUrl="https://api.example.com" />);
    await waitFor(() => expect($offer.get()).not.toBeNull());
    expect(screen.queryByTestId('tryit-free')).toBeNull();
    send();
    expect(screen.getByTestId('paid-confirm').textContent).toContain('up to 60 credits');
    expect(sent()).toEqual([]);
  });

  it('a call that spends nothing is sent at once', () => {
    render(<TryIt spec={result} baseUrl="https://api.example.com" />);
    send();
    expect(screen.queryByRole('group')).toBeNull();
    expect(sent()).toHaveLength(1);
  });

  it('a new request clears the previous answer while it is on its way', async () => {
    render(<TryIt spec={result} baseUrl="https://api.example.com" />);
    send();
    await act(async () => answers[0]!('{"code":0,"data":{"first":true}}'));
    expect(screen.getByTestId('tryit-answer').textContent).toContain('first');
    send();
    expect(screen.queryByTestId('tryit-answer')).toBeNull();
    await act(async () => answers[1]!('{"code":0,"data":{"second":true}}'));
    expect(screen.getByTestId('tryit-answer').textContent).toContain('second');
  });
});
