// @vitest-environment happy-dom
// Safe storage and cookies: values round-trip, blocked storage reads as empty and never throws (SPEC.md §3).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deleteCookie, getCookie, local, session, setCookie } from './storage';

const real = {
  localStorage: Object.getOwnPropertyDescriptor(globalThis, 'localStorage')!,
  sessionStorage: Object.getOwnPropertyDescriptor(globalThis, 'sessionStorage')!,
};

/** As a browser does when site data is blocked: merely reading the storage property throws. */
function block(kind: 'localStorage' | 'sessionStorage') {
  Object.defineProperty(globalThis, kind, {
    configurable: true,
    get() {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  Object.defineProperty(globalThis, 'localStorage', real.localStorage);
  Object.defineProperty(globalThis, 'sessionStorage', real.sessionStorage);
  localStorage.clear();
  sessionStorage.clear();
  for (const name of ['plain', 'odd', 'gone']) document.cookie = `${name}=; Max-Age=0; Path=/`;
  history.replaceState(null, '', '/');
});

describe.each([
  ['local', local, () => localStorage],
  ['session', session, () => sessionStorage],
] as const)('%s', (_name, area, storage) => {
  it('sets, gets and removes in its own storage only', () => {
    area.set('k', 'v');
    expect(area.get('k')).toBe('v');
    expect(storage().getItem('k')).toBe('v');
    const other = storage() === localStorage ? sessionStorage : localStorage;
    expect(other.getItem('k')).toBeNull();
    area.remove('k');
    expect(area.get('k')).toBeNull();
  });

  it('reads nothing and writes nowhere, without throwing, when storage is blocked', () => {
    storage().setItem('k', 'kept');
    block(storage() === localStorage ? 'localStorage' : 'sessionStorage');
    expect(area.get('k')).toBeNull();
    expect(() => area.set('k', 'new')).not.toThrow();
    expect(() => area.remove('k')).not.toThrow();
  });
});

describe('cookies', () => {
  it('round-trips a value with separators and non-ASCII text', () => {
    setCookie('odd', 'a=b; c, ü', 1);
    expect(getCookie('odd')).toBe('a=b; c, ü');
    expect(getCookie('missing')).toBeNull();
  });

  it('finds a cookie by its exact name among others', () => {
    document.cookie = 'plainer=wrong; Path=/';
    setCookie('plain', 'right', 1);
    expect(getCookie('plain')).toBe('right');
    document.cookie = 'plainer=; Max-Age=0; Path=/';
  });

  it('writes a lifetime in days as Max-Age, on the whole site, SameSite=Lax, and Secure only on https', () => {
    const written: string[] = [];
    // Records what is written, which a cookie jar does not show back (attributes are not readable from script).
    Object.defineProperty(document, 'cookie', {
      configurable: true,
      get: () => '',
      set: (v: string) => written.push(v),
    });
    try {
      setCookie('plain', 'x', 30);
      setCookie('plain', 'y', 0.5);
      vi.stubGlobal('location', new URL('https://dreamapi.test/pricing'));
      setCookie('plain', 'z', 1);
      deleteCookie('gone');
    } finally {
      delete (document as { cookie?: string }).cookie;
    }
    expect(written).toEqual([
      'plain=x; Max-Age=2592000; Path=/; SameSite=Lax',
      'plain=y; Max-Age=43200; Path=/; SameSite=Lax',
      'plain=z; Max-Age=86400; Path=/; SameSite=Lax; Secure',
      'gone=; Max-Age=0; Path=/',
    ]);
  });

  it('deletes a cookie', async () => {
    setCookie('gone', 'soon', 1);
    deleteCookie('gone');
    await new Promise((r) => setTimeout(r, 5)); // an expiry of "now" applies once the clock moves on
    expect(getCookie('gone')).toBeNull();
  });

  it('does nothing where there is no document (server rendering)', () => {
    vi.stubGlobal('document', undefined);
    expect(getCookie('plain')).toBeNull();
    expect(() => setCookie('plain', 'x', 1)).not.toThrow();
    expect(() => deleteCookie('plain')).not.toThrow();
  });
});
