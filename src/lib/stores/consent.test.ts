// @vitest-environment happy-dom Cookie consent: read from and written to the `cookie-accpet` key of SPEC.md §3; blocked
// storage keeps the choice for the page.
import { afterEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../product-rules';
import { $consent, chooseConsent, loadConsent } from './consent';

const realStorage = Object.getOwnPropertyDescriptor(globalThis, 'localStorage')!;

afterEach(() => {
  Object.defineProperty(globalThis, 'localStorage', realStorage);
  localStorage.clear();
  $consent.set(undefined);
});

describe('consent', () => {
  it('is unknown until loaded, then null when the visitor has not chosen', () => {
    expect($consent.get()).toBeUndefined();
    loadConsent();
    expect($consent.get()).toBeNull();
  });

  it.each(['accepted', 'declined'] as const)('loads a stored %s', (choice) => {
    localStorage.setItem(STORAGE_KEYS.cookieAccept, choice);
    loadConsent();
    expect($consent.get()).toBe(choice);
  });

  it('treats any other stored value as no choice', () => {
    localStorage.setItem(STORAGE_KEYS.cookieAccept, 'yes please');
    loadConsent();
    expect($consent.get()).toBeNull();
  });

  it('stores the choice under cookie-accpet, the key of the original front end', () => {
    chooseConsent('declined');
    expect(localStorage.getItem('cookie-accpet')).toBe('declined');
    expect($consent.get()).toBe('declined');
    $consent.set(undefined);
    loadConsent();
    expect($consent.get()).toBe('declined');
  });

  it('still records the choice for this page when storage is blocked', () => {
    // As a browser does when site data is blocked: merely reading window.localStorage throws.
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get() {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    });
    expect(() => loadConsent()).not.toThrow();
    expect($consent.get()).toBeNull();
    chooseConsent('accepted');
    expect($consent.get()).toBe('accepted');
  });
});
