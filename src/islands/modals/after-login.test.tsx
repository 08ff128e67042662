// After sign-in a suspended account sees the suspension modal first; the information modal waits until it closes
// (SPEC.md §4).
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAccountsTestApp, signIn, type AccountsTestApp } from '../../../server/test-support/accounts';
import { closeModal, openModal, resetModals } from '../../lib/stores/modals';
import { completeLogin } from '../../lib/stores/login';
import ModalHost from './ModalHost';

let t: AccountsTestApp;

beforeEach(async () => {
  // The real server on in-memory SQLite answers the store's calls.
  t = await createAccountsTestApp();
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) => t.app.request(String(input), init));
  localStorage.clear();
});
afterEach(async () => {
  cleanup();
  resetModals();
  vi.unstubAllGlobals();
  await t.close();
});

const title = () => screen.getByRole('dialog').querySelector('h2')?.textContent;

describe('after login', () => {
  it('shows the suspension modal before the information modal', async () => {
    const { token, userId } = await signIn(t, 'suspended@example.com');
    await t.database.db.updateTable('users').set({ suspended: 1 }).where('id', '=', userId).execute();
    render(<ModalHost />);
    // The login modal is open while the code is checked; on success it closes itself, as LoginModal does.
    act(() => openModal('login'));
    await act(async () => {
      await completeLogin({ token, userId });
      closeModal();
    });
    await waitFor(() => expect(title()).toBe('Account suspended'));
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(title()).toBe('Tell us about you'));
  });
});
