// Toasts without React: the message appears in the live region with its kind, a newer one replaces it, and it goes
// away.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MODALS } from '../../lib/product-rules';
import { $toast, showToast } from '../../lib/stores/modals';
import { showToasts } from './toast';

afterEach(() => {
  vi.useRealTimers();
  $toast.set(null);
});

describe('toasts', () => {
  it('shows each toast in the region, replaces it with the next, and clears it after MODALS.toastMs', () => {
    vi.useFakeTimers();
    const region = document.createElement('div');
    const stop = showToasts(region);
    showToast('Saved');
    expect(region.textContent).toBe('Saved');
    expect(region.firstElementChild!.className).toBe('toast toast--success');
    vi.advanceTimersByTime(MODALS.toastMs - 100);
    showToast('Failed', 'error');
    expect(region.textContent).toBe('Failed');
    expect(region.firstElementChild!.className).toBe('toast toast--error');
    vi.advanceTimersByTime(MODALS.toastMs - 1);
    expect(region.textContent).toBe('Failed');
    vi.advanceTimersByTime(1);
    expect(region.textContent).toBe('');
    expect($toast.get()).toBeNull();
    stop();
  });
});
