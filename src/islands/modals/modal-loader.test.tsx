// The modal host loads only when a modal is wanted (no React on a page's first load), then shows every modal.
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { closeModal, openModal, resetModals } from '../../lib/stores/modals';
import { watchModals } from './modal-loader';

afterEach(() => {
  cleanup();
  resetModals();
  document.body.innerHTML = '';
});

describe('modal loader', () => {
  it('mounts nothing until a modal is opened, then the host with that modal, and the next one after it', async () => {
    const stop = watchModals();
    expect(document.getElementById('modal-root')).toBeNull();
    openModal('invitation');
    await waitFor(() => expect(screen.getByRole('dialog', { name: 'My Invitation' })).toBeTruthy());
    expect(document.querySelectorAll('#modal-root')).toHaveLength(1);
    closeModal();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    openModal('login');
    await waitFor(() => expect(screen.getByRole('dialog', { name: 'Log in or sign up' })).toBeTruthy());
    expect(document.querySelectorAll('#modal-root')).toHaveLength(1);
    stop();
  });
});
