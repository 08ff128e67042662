// The cookie banner asks until the visitor chooses, then stays away (SPEC.md §2 shell, §3 `cookie-accpet`).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { $consent } from '../../lib/stores/consent';
import { mountCookieBanner } from './cookie-banner';

let stop: () => void = () => {};

/** The banner as CookieBanner.astro renders it (hidden until a script decides). */
function banner(): HTMLElement {
  document.body.innerHTML = `<section data-cookie-banner hidden><p>We use cookies</p>
    <button data-consent="declined">Only necessary</button><button data-consent="accepted">Accept all</button></section>`;
  const element = document.querySelector<HTMLElement>('[data-cookie-banner]')!;
  stop = mountCookieBanner(element);
  return element;
}

beforeEach(() => {
  localStorage.clear();
  $consent.set(undefined);
});
afterEach(() => stop());

describe('cookie banner', () => {
  it('shows to a visitor who has not chosen', () => {
    expect(banner().hidden).toBe(false);
  });

  it.each([
    ['Accept all', 'accepted'],
    ['Only necessary', 'declined'],
  ])('"%s" hides it and stores %s under cookie-accpet', (label, stored) => {
    const element = banner();
    [...element.querySelectorAll('button')].find((b) => b.textContent === label)!.click();
    expect(element.hidden).toBe(true);
    expect(localStorage.getItem('cookie-accpet')).toBe(stored);
  });

  it('stays hidden for a visitor who already chose', () => {
    localStorage.setItem('cookie-accpet', 'accepted');
    expect(banner().hidden).toBe(true);
  });
});
