// Island tests: the native dialog shell (focus in, Escape, focus back to the opener), code boxes (first digit focused,
// paste, auto-submit), the suspension countdown, and the email check on blur (SPEC.md §4, §5).
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { MESSAGES } from '../../lib/product-rules';
import { $modal, openModal, resetModals } from '../../lib/stores/modals';
import { FEATURES_PATH, forgetOffer } from '../../lib/stores/offer';
import CodeBoxes from './CodeBoxes';
import LoginModal from './LoginModal';
import Modal from './Modal';
import SuspensionModal from './SuspensionModal';

afterEach(() => {
  cleanup();
  resetModals();
  forgetOffer();
  vi.useRealTimers();
});

function Boxes({ onComplete }: { onComplete: (code: string) => void }) {
  const [digits, setDigits] = useState(['', '', '', '']);
  return <CodeBoxes digits={digits} onChange={setDigits} onComplete={onComplete} />;
}

describe('Modal', () => {
  function Opened({ onClose }: { onClose: () => void }) {
    return (
      <Modal title="Test dialog" onClose={onClose}>
        <input aria-label="Name" />
      </Modal>
    );
  }

  it('is a native dialog opened modally, with its first field focused and its title as its name', () => {
    render(<Opened onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Test dialog' });
    expect(dialog.tagName).toBe('DIALOG');
    expect((dialog as HTMLDialogElement).open).toBe(true);
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
  });

  it('closes through the store on Escape (the cancel event) and the close button', () => {
    const onClose = vi.fn();
    render(<Opened onClose={onClose} />);
    const dialog = screen.getByRole('dialog');
    const cancel = new Event('cancel', { cancelable: true });
    dialog.dispatchEvent(cancel);
    expect(cancel.defaultPrevented).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('gives focus back to the element that opened it', () => {
    const opener = document.createElement('button');
    opener.textContent = 'Log In';
    document.body.append(opener);
    opener.getClientRects = () => [new DOMRect(0, 0, 10, 10)] as unknown as DOMRectList;
    opener.focus();
    const { unmount } = render(<Opened onClose={() => {}} />);
    expect(document.activeElement).not.toBe(opener);
    unmount();
    expect(document.activeElement).toBe(opener);
    opener.remove();
  });
});

describe('CodeBoxes', () => {
  it('focuses the first digit when it appears, and again when a wrong code clears the boxes', () => {
    const { rerender } = render(<CodeBoxes digits={['', '', '', '']} onChange={() => {}} onComplete={() => {}} />);
    expect(document.activeElement).toBe(screen.getByLabelText('Digit 1'));
    screen.getByLabelText('Digit 3').focus();
    rerender(<CodeBoxes digits={['1', '2', '3', '4']} disabled onChange={() => {}} onComplete={() => {}} />);
    rerender(<CodeBoxes digits={['', '', '', '']} onChange={() => {}} onComplete={() => {}} />);
    expect(document.activeElement).toBe(screen.getByLabelText('Digit 1'));
  });

  it('takes one digit per box and submits on the 4th', () => {
    const done = vi.fn();
    render(<Boxes onComplete={done} />);
    ['1', '2', '3'].forEach((d, i) =>
      fireEvent.change(screen.getByLabelText(`Digit ${i + 1}`), { target: { value: d } }),
    );
    expect(done).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Digit 4'), { target: { value: '47' } });
    expect(done).toHaveBeenCalledWith('1237');
    expect(screen.getByLabelText('Digit 1').getAttribute('maxlength')).toBe('1');
  });

  it('fills every box from a paste and submits', () => {
    const done = vi.fn();
    render(<Boxes onComplete={done} />);
    fireEvent.paste(screen.getByLabelText('Digit 1'), { clipboardData: { getData: () => ' 98-76 ' } });
    expect(done).toHaveBeenCalledWith('9876');
  });
});

describe('SuspensionModal', () => {
  it('shows a 9 s countdown and closes itself', () => {
    vi.useFakeTimers();
    openModal('suspension');
    render(<SuspensionModal />);
    expect(screen.getByText('9s')).toBeTruthy();
    for (let i = 0; i < 4; i += 1) act(() => void vi.advanceTimersByTime(1000));
    expect(screen.getByText('5s')).toBeTruthy();
    for (let i = 0; i < 5; i += 1) act(() => void vi.advanceTimersByTime(1000));
    expect($modal.get()).toBeNull();
  });
});

describe('LoginModal', () => {
  it('moves to the code step with the first digit focused once the code is sent', async () => {
    vi.stubGlobal('fetch', async () =>
      Response.json({ code: 0, msg: 'Sent Successfully', data: { attemptId: 'attempt-1' } }),
    );
    render(<LoginModal />);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.getByRole('dialog', { name: 'Enter the code' })).toBeTruthy());
    // The focus moves in an effect after the step's render, which a busy machine may not have run yet.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Digit 1')));
    vi.unstubAllGlobals();
  });

  it("says 'Invalid email address' on blur and does not send", () => {
    const fetchMock = vi.fn((_url: string) => Promise.reject(new Error('offline')));
    vi.stubGlobal('fetch', fetchMock);
    render(<LoginModal />);
    const email = screen.getByLabelText('Email');
    fireEvent.change(email, { target: { value: 'nope@' } });
    fireEvent.blur(email);
    expect(screen.getByText(MESSAGES.invalidEmail)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    // The only request is the offer answer the modal reads its sign-in methods from; no code was sent.
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual([expect.stringContaining(FEATURES_PATH)]);
    vi.unstubAllGlobals();
  });
});
