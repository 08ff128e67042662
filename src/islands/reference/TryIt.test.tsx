// Try it on the reference: a charged call shows its cost and asks first; a new request clears the last answer.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '../../lib/api';
import type { SampleSpec } from '../../lib/reference/samples';
import { $apiKey, $user } from '../../lib/stores/signed-in';
import TryIt from './TryIt';

const textToVideo: SampleSpec = {
  method: 'post',
  path: '/api/async/text2video',
  auth: 'bearer',
  contentType: 'application/json',
  example: { prompt: 'A lighthouse at dawn' },
  envelope: true,
};
const result: SampleSpec = {
  method: 'post',
  path: '/api/getAsyncResult',
  auth: 'bearer',
  contentType: 'application/json',
  example: { taskId: 'b3c1e9a4-7d2f-4c8e-9a51-6f0d2e8b4c17' },
  envelope: true,
};

let answers: Array<(body: string) => void>;
const fetchMock = vi.fn(
  () => new Promise<Response>((resolve) => answers.push((body) => resolve(new Response(body, { status: 200 })))),
);

beforeEach(() => {
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
  it('a submit says what it costs and sends nothing until confirmed; Cancel sends nothing', () => {
    render(<TryIt spec={textToVideo} baseUrl="https://api.example.com" />);
    send();
    expect(screen.getByRole('group').textContent).toContain('up to 60 credits');
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('group')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
    send();
    fireEvent.click(screen.getByRole('button', { name: 'Send and spend 60 credits' }));
    expect(fetchMock).toHaveBeenCalledOnce();
  });

  it('a call that spends nothing is sent at once', () => {
    render(<TryIt spec={result} baseUrl="https://api.example.com" />);
    send();
    expect(screen.queryByRole('group')).toBeNull();
    expect(fetchMock).toHaveBeenCalledOnce();
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
