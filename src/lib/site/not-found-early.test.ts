// The not-found notice's inline script: shown with the asked path when the 404 page left one, once; hidden otherwise.
import { describe, expect, it } from 'vitest';
import { NOT_FOUND } from '../product-rules';
import { NOT_FOUND_EARLY_SCRIPT } from './not-found-early';

/** Runs the script as the browser does right after the notice's markup, against this storage; answers the notice. */
function run(storage: Pick<Storage, 'getItem' | 'removeItem'>) {
  const notice = { textContent: '', hidden: true };
  new Function('document', 'sessionStorage', NOT_FOUND_EARLY_SCRIPT)(
    { currentScript: { previousElementSibling: notice } },
    storage,
  );
  return notice;
}

function memoryStorage(entries: Record<string, string>) {
  const map = new Map(Object.entries(entries));
  return { getItem: (k: string) => map.get(k) ?? null, removeItem: (k: string) => void map.delete(k), map };
}

describe('NOT_FOUND_EARLY_SCRIPT', () => {
  it('shows the notice with the asked path, and only once', () => {
    const storage = memoryStorage({ [NOT_FOUND.storageKey]: '/playground/bogus' });
    expect(run(storage)).toEqual({ textContent: NOT_FOUND.notice('/playground/bogus'), hidden: false });
    expect(storage.map.has(NOT_FOUND.storageKey)).toBe(false);
    expect(run(storage).hidden).toBe(true);
  });

  it('keeps the notice hidden when no path was left or storage is blocked', () => {
    expect(run(memoryStorage({})).hidden).toBe(true);
    const blocked = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      removeItem: () => {},
    };
    expect(run(blocked).hidden).toBe(true);
  });
});
