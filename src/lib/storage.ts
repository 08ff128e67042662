// Safe access to localStorage, sessionStorage and cookies: blocked storage degrades to "nothing stored" (SPEC.md §3).

function area(kind: 'localStorage' | 'sessionStorage'): Storage | undefined {
  try {
    return globalThis[kind];
  } catch {
    return undefined;
  }
}

export const local = {
  get: (key: string): string | null => area('localStorage')?.getItem(key) ?? null,
  set: (key: string, value: string): void => area('localStorage')?.setItem(key, value),
  remove: (key: string): void => area('localStorage')?.removeItem(key),
};

export const session = {
  get: (key: string): string | null => area('sessionStorage')?.getItem(key) ?? null,
  set: (key: string, value: string): void => area('sessionStorage')?.setItem(key, value),
  remove: (key: string): void => area('sessionStorage')?.removeItem(key),
};

export function getCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

export function setCookie(name: string, value: string, days: number): void {
  if (typeof document === 'undefined') return;
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${Math.round(days * 86400)}; Path=/; SameSite=Lax${secure}`;
}

export function deleteCookie(name: string): void {
  if (typeof document === 'undefined') return;
  document.cookie = `${name}=; Max-Age=0; Path=/`;
}
