// @vitest-environment happy-dom
// The site wiring of stay time (SPEC.md §4): one stay event per hide, on whichever of pagehide and
// visibilitychange(hidden) comes first, and it is stashed with the page's other unsent entries on leave.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STASH_PREFIX } from '../product-rules';
import type { QueuedEntry } from './types';

// happy-dom has no Worker: the stub's connect fails, so every entry stays with the page, as in a tab whose
// worker has not started yet or has already been ended; what the page leaves behind is its stash.
let visibility: DocumentVisibilityState = 'visible';
/** Listeners the page added, removed after each test: every test starts one page of its own. */
let added: Array<() => void> = [];

beforeEach(() => {
  vi.resetModules();
  for (const target of [window, document] as EventTarget[]) {
    const add = target.addEventListener.bind(target);
    vi.spyOn(target, 'addEventListener').mockImplementation((type, listener, options) => {
      add(type, listener, options);
      added.push(() => target.removeEventListener(type, listener, options));
    });
  }
  localStorage.clear();
  visibility = 'visible';
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
  Object.defineProperty(document, 'referrer', { configurable: true, get: () => '' });
});
afterEach(() => {
  added.forEach((remove) => remove());
  added = [];
  vi.restoreAllMocks();
  vi.useRealTimers();
});

async function start() {
  const { startSiteTracking } = await import('./site');
  return startSiteTracking();
}

function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

function pagehide(persisted = false) {
  window.dispatchEvent(Object.assign(new Event('pagehide'), { persisted }));
}

/** Stay entries in every stash the page left in localStorage. */
function stashedStays(): QueuedEntry[] {
  const found: QueuedEntry[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i)!;
    if (key.startsWith(STASH_PREFIX)) found.push(...(JSON.parse(localStorage.getItem(key)!) as QueuedEntry[]));
  }
  return found.filter((e) => e.oid === 'web_page_stay');
}

describe('site stay time', () => {
  it('pagehide then visibilitychange(hidden): exactly one stay event, and it is in the stash', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const tracker = await start();
    vi.advanceTimersByTime(4000);
    pagehide();
    setVisibility('hidden');
    const stays = stashedStays();
    expect(stays).toHaveLength(1);
    expect(stays[0]).toMatchObject({ action: 5, logmap: { path: location.pathname, stayMs: 4000 } });
    // Nothing reported after the page left is waiting in memory with no way out.
    expect(tracker.pendingCount()).toBe(1);
  });

  it('visibilitychange(hidden) then pagehide: exactly one stay event, and it is in the stash', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const tracker = await start();
    vi.advanceTimersByTime(2500);
    setVisibility('hidden');
    pagehide();
    const stays = stashedStays();
    expect(stays).toHaveLength(1);
    expect(stays[0]!.logmap.stayMs).toBe(2500);
    expect(tracker.pendingCount()).toBe(1);
  });

  it('visible again resets the start: the next hide reports once more, counted from then (SPEC.md §4)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    await start();
    vi.advanceTimersByTime(1000);
    setVisibility('hidden');
    setVisibility('hidden');
    vi.advanceTimersByTime(5000);
    setVisibility('visible');
    vi.advanceTimersByTime(3000);
    pagehide();
    setVisibility('hidden');
    expect(stashedStays().map((e) => e.logmap.stayMs)).toEqual([1000, 3000]);
  });

  it('a page restored from the back/forward cache reports its stay again when it is left again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    await start();
    vi.advanceTimersByTime(1000);
    pagehide(true);
    setVisibility('hidden');
    vi.advanceTimersByTime(60_000);
    window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    setVisibility('visible');
    vi.advanceTimersByTime(2000);
    setVisibility('hidden');
    pagehide(true);
    expect(stashedStays().map((e) => e.logmap.stayMs)).toEqual([1000, 2000]);
  });
});
