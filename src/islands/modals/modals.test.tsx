// Island tests: code boxes (paste, auto-submit), the suspension countdown, and the email check on blur (SPEC.md §4, §5).
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { MESSAGES } from '../../lib/spec';
import { $modal, openModal, resetModals } from '../../lib/stores/modals';
import CodeBoxes from './CodeBoxes';
import LoginModal from './LoginModal';
import SuspensionModal from './SuspensionModal';

afterEach(() => {
  cleanup();
  resetModals();
  vi.useRealTimers();
});

function Boxes({ onComplete }: { onComplete: (code: string) => void }) {
  const [digits, setDigits] = useState(['', '', '', '']);
  return <CodeBoxes digits={digits} onChange={setDigits} onComplete={onComplete} />;
}

describe('CodeBoxes', () => {
  it('takes one digit per box and submits on the 4th', () => {
    const done = vi.fn();
    render(<Boxes onComplete={done} />);
    ['1', '2', '3'].forEach((d, i) => fireEvent.change(screen.getByLabelText(`Digit ${i + 1}`), { target: { value: d } }));
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
  it("says 'Invalid email address' on blur and does not send", () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    render(<LoginModal />);
    const email = screen.getByLabelText('Email');
    fireEvent.change(email, { target: { value: 'nope@' } });
    fireEvent.blur(email);
    expect(screen.getByText(MESSAGES.invalidEmail)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(fetchMock).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });
});
