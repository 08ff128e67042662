// Keeps a screen's inputs in sessionStorage, so a guest who signs in (or reloads) finds them where they left them.
import { startTransition, useEffect, useRef, useState } from 'react';
import { session } from '../../lib/storage';

const PREFIX = 'playgroundDraft:';

export function readDraft<T extends object>(key: string, initial: T): T {
  try {
    const raw = session.get(PREFIX + key);
    if (!raw) return initial;
    const parsed: unknown = JSON.parse(raw);
    // Only known fields of the right type come back: an old or edited draft never breaks the screen.
    if (!parsed || typeof parsed !== 'object') return initial;
    const merged = { ...initial } as Record<string, unknown>;
    for (const [k, v] of Object.entries(initial)) {
      const stored = (parsed as Record<string, unknown>)[k];
      if (stored !== undefined && typeof stored === typeof v && Array.isArray(stored) === Array.isArray(v))
        merged[k] = stored;
    }
    return merged as T;
  } catch {
    return initial;
  }
}

export function writeDraft(key: string, value: object): void {
  try {
    session.set(PREFIX + key, JSON.stringify(value));
  } catch {
    // Storage full or blocked: the draft lives only in memory, which is still correct.
  }
}

/**
 * useState whose value is restored from and saved to the session's draft under `key`. The first render uses
 * `initial` (as the pre-rendered HTML does, so hydration matches); the stored draft is applied right after.
 */
export function useDraft<T extends object>(
  key: string,
  initial: T,
): [T, (update: Partial<T> | ((d: T) => Partial<T>)) => void] {
  const [draft, setDraft] = useState<T>(initial);
  // A ref, not state: marking the draft restored must not render the whole screen once more after hydration.
  const restored = useRef(false);
  useEffect(() => {
    let live = true;
    // Read as a subscription would: in a callback after mount, never during the hydrating render. Without a stored
    // draft readDraft answers `initial` itself, the state's own value, so nothing renders again; with one, the
    // screen renders it as a transition, in slices that leave the page responsive.
    void Promise.resolve().then(() => {
      if (!live) return;
      restored.current = true;
      const stored = readDraft(key, initial);
      if (stored !== initial) startTransition(() => setDraft(stored));
    });
    return () => {
      live = false;
    };
    // Restore once per key; `initial` is a fresh object each render and must not re-trigger it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  useEffect(() => {
    if (restored.current) writeDraft(key, draft);
  }, [key, draft]);
  const update = (u: Partial<T> | ((d: T) => Partial<T>)) =>
    setDraft((d) => ({ ...d, ...(typeof u === 'function' ? u(d) : u) }));
  return [draft, update];
}
