// The SPEC.md §7/§8 client: headers, form body, success markers, 40001 handling, server messages and the timeout.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../product-rules';
import { apiRequest, onNotLoggedIn, type NotLoggedIn } from './client';

const store = new Map<string, string>();
beforeEach(() => {
  store.clear();
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  });
});
afterEach(() => vi.unstubAllGlobals());

function answer(body: unknown) {
  const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => new Response(JSON.stringify(body)));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('apiRequest', () => {
  it('sends a form body with the token header and the Bearer key, and returns data on code 0', async () => {
    store.set('userToken', 'tok');
    store.set('userKey', 'sk-key');
    const fetchMock = answer({ code: 0, msg: 'ok', data: { a: 1 } });
    expect(await apiRequest('/user/code', { email: 'a@b.co', type: 'login' })).toEqual({ a: 1 });
    const init = fetchMock.mock.calls[0]![1];
    expect(init.body).toBe('email=a%40b.co&type=login');
    expect(init.headers).toMatchObject({
      'content-type': 'application/x-www-form-urlencoded',
      token: 'tok',
      authorization: 'Bearer sk-key',
    });
  });

  it('accepts status_code THS12140000000 as success and sends JSON when asked', async () => {
    const fetchMock = answer({ status_code: 'THS12140000000', data: 'x' });
    expect(await apiRequest('/user/invitation', { code: 'A' }, { json: true })).toBe('x');
    expect(fetchMock.mock.calls[0]![1].body).toBe('{"code":"A"}');
  });

  it("on 40001 tells its listeners the countryCode and rejects with 'User Not Login'; forgetting is the listeners' job", async () => {
    store.set('userToken', 'tok');
    const notices: NotLoggedIn[] = [];
    const stop = onNotLoggedIn((notice) => notices.push(notice));
    answer({ code: 40001, msg: 'nope', data: { countryCode: 'DE' } });
    await expect(apiRequest('/user/info')).rejects.toMatchObject({ message: MESSAGES.notLoggedIn, code: 40001 });
    answer({ code: 40001, msg: 'nope' });
    await expect(apiRequest('/user/info')).rejects.toThrow(MESSAGES.notLoggedIn);
    stop();
    await expect(apiRequest('/user/info')).rejects.toThrow(MESSAGES.notLoggedIn);
    expect(notices).toEqual([{ countryCode: 'DE' }, { countryCode: null }]);
    // The session store (src/lib/stores/signed-in.ts) clears the tokens; the client alone only reads them.
    expect(store.get('userToken')).toBe('tok');
  });

  it("rejects with the server's message, else 'Failed'", async () => {
    answer({ code: 40029, msg: 'Please wait' });
    await expect(apiRequest('/user/code')).rejects.toThrow('Please wait');
    answer({ code: 50000 });
    await expect(apiRequest('/user/code')).rejects.toThrow(MESSAGES.failed);
  });

  it("rejects with 'Network error，Please try again later' on timeout", async () => {
    vi.stubGlobal(
      'fetch',
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) =>
          init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    await expect(apiRequest('/user/info', {}, { timeoutMs: 5 })).rejects.toThrow(MESSAGES.networkError);
  });
});
