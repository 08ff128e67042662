// The cookie banner asks until the visitor chooses, then stays away (SPEC.md §2 shell, §3 `cookie-accpet`).
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { $consent } from '../../lib/stores/consent';
import CookieBanner from './CookieBanner';

beforeEach(() => {
  localStorage.clear();
  $consent.set(undefined);
});
afterEach(cleanup);

describe('CookieBanner', () => {
  it('shows to a visitor who has not chosen', () => {
    render(<CookieBanner />);
    expect(screen.getByRole('region', { name: 'Cookie consent' })).toBeTruthy();
  });

  it.each([
    ['Accept all', 'accepted'],
    ['Only necessary', 'declined'],
  ])('"%s" hides it and stores %s under cookie-accpet', (button, stored) => {
    render(<CookieBanner />);
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: button }));
    });
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).toBeNull();
    expect(localStorage.getItem('cookie-accpet')).toBe(stored);
  });

  it('stays hidden for a visitor who already chose', () => {
    localStorage.setItem('cookie-accpet', 'accepted');
    render(<CookieBanner />);
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).toBeNull();
  });
});
