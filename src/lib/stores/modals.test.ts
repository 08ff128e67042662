// The modal queue (several after-login modals may be due at once) and the toast the modal host shows.
import { afterEach, describe, expect, it } from 'vitest';
import { $modal, $toast, closeModal, openModal, resetModals, showToast } from './modals';

afterEach(() => {
  resetModals();
  $toast.set(null);
});

describe('modal queue', () => {
  it('opens a modal at once when none is open', () => {
    openModal('login');
    expect($modal.get()).toBe('login');
  });

  it('queues modals behind the open one and shows them in the order asked', () => {
    openModal('suspension');
    openModal('info');
    openModal('bindEmail');
    expect($modal.get()).toBe('suspension');
    closeModal();
    expect($modal.get()).toBe('info');
    closeModal();
    expect($modal.get()).toBe('bindEmail');
    closeModal();
    expect($modal.get()).toBeNull();
  });

  it('asking again for the open or a queued modal adds nothing', () => {
    openModal('login');
    openModal('login');
    openModal('info');
    openModal('info');
    closeModal();
    expect($modal.get()).toBe('info');
    closeModal();
    expect($modal.get()).toBeNull();
  });

  it('reset closes the open modal and drops the queue', () => {
    openModal('suspension');
    openModal('info');
    resetModals();
    expect($modal.get()).toBeNull();
    closeModal();
    expect($modal.get()).toBeNull();
    openModal('invitation');
    expect($modal.get()).toBe('invitation');
  });
});

describe('toast', () => {
  it('is a success unless told otherwise, and each one is new even with the same text', () => {
    showToast('Saved');
    const first = $toast.get()!;
    expect(first).toMatchObject({ message: 'Saved', kind: 'success' });
    showToast('Saved');
    expect($toast.get()!.id).toBeGreaterThan(first.id);
    showToast('Failed', 'error');
    expect($toast.get()).toMatchObject({ message: 'Failed', kind: 'error' });
  });
});
