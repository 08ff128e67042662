// The voice recorder: browsers without recording say so, guests sign in first, a refused microphone says what to do.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '../../lib/api';
import { $modal, resetModals } from '../../lib/stores/modals';
import { $user } from '../../lib/stores/signed-in';
import Recorder from './Recorder';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetModals();
  $user.set(undefined);
});

/** A browser that can record: MediaRecorder exists, and the microphone answers as `getUserMedia` says. */
function canRecord(getUserMedia: () => Promise<MediaStream>) {
  vi.stubGlobal('MediaRecorder', class {});
  vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { mediaDevices: { getUserMedia } }));
}

const recordButton = () => screen.getByRole('button', { name: '● Record a sample' });

describe('Recorder', () => {
  it('tells a browser without MediaRecorder to upload instead', () => {
    // happy-dom, like some browsers, has no MediaRecorder.
    expect('MediaRecorder' in window).toBe(false);
    render(<Recorder onRecorded={() => undefined} screen="voiceClone" />);
    expect(screen.getByText('This browser cannot record; upload a file instead.')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('asks a guest to log in before asking for the microphone', async () => {
    const getUserMedia = vi.fn(() => Promise.reject(new Error('not asked')));
    canRecord(getUserMedia);
    $user.set(null);
    render(<Recorder onRecorded={() => undefined} screen="voiceClone" />);
    await act(async () => void fireEvent.click(recordButton()));
    expect($modal.get()).toBe('login');
    expect(getUserMedia).not.toHaveBeenCalled();
  });

  it('says how to allow the microphone when it is refused', async () => {
    canRecord(() => Promise.reject(new DOMException('Permission denied', 'NotAllowedError')));
    $user.set({ userId: 'u1' } as UserInfo);
    render(<Recorder onRecorded={() => undefined} screen="voiceClone" />);
    await act(async () => void fireEvent.click(recordButton()));
    expect(screen.getByRole('alert').textContent).toBe(
      'The microphone is not available. Allow microphone access in the browser, or upload a file instead.',
    );
    expect(recordButton().getAttribute('aria-pressed')).toBe('false');
  });
});
