// Island unit tests (happy-dom): cost preview from quote(), draft persistence across reloads, input validation.
// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { quote, TASK_LIMITS } from '../../lib/product-rules';
import { $user } from '../../lib/stores/signed-in';
import { $modal, resetModals } from '../../lib/stores/modals';
import SpeechScreen from './SpeechScreen';
import DialogueScreen from './DialogueScreen';
import VideoScreen from './VideoScreen';
import { readDraft, writeDraft } from './draft';
import { checkDuration, checkFile } from './media-check';
import { dialogueProblem, textProblem } from './validate';
import { generateScript, parseScript, scriptToText } from './script-template';

const flush = () => act(() => Promise.resolve());

// No server here: history and feature calls fail quietly, as they would offline.
beforeEach(() => {
  vi.stubGlobal('fetch', () => Promise.reject(new Error('offline')));
});

afterEach(() => {
  vi.unstubAllGlobals();
  cleanup();
  sessionStorage.clear();
  resetModals();
  $user.set(undefined);
});

describe('speech cost preview', () => {
  it('shows quote() for the typed characters, Common then Pro, beside the balance', async () => {
    $user.set({ userId: 'u1', userEmail: 'a@b.c', userName: 'a', userPoints: 42, company: '', valid: 0 } as never);
    render(<SpeechScreen />);
    await flush();
    const text = 'x'.repeat(451);
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: text } });
    expect(screen.getByTestId('char-count').textContent).toBe('451');
    expect(screen.getByTestId('cost').textContent).toBe(String(quote('tts-common', { characters: 451 })));
    expect(screen.getByTestId('cost').textContent).toBe('2');
    fireEvent.click(screen.getByRole('radio', { name: 'Pro' }));
    expect(screen.getByTestId('cost').textContent).toBe(String(quote('tts-pro', { characters: 451 })));
    expect(screen.getByTestId('cost').textContent).toBe('3');
    expect(screen.getByTestId('balance').textContent).toBe('42');
  });

  it('counts characters as the server does (code points, trimmed)', async () => {
    render(<SpeechScreen />);
    await flush();
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: '  😀😀  ' } });
    expect(screen.getByTestId('char-count').textContent).toBe('2');
  });

  it('offers the top-up when the balance does not cover the cost', async () => {
    $user.set({ userId: 'u1', userEmail: 'a@b.c', userName: 'a', userPoints: 0, company: '', valid: 0 } as never);
    render(<SpeechScreen />);
    await flush();
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'hello' } });
    expect(screen.getByRole('link', { name: 'Top up credits' }).getAttribute('href')).toBe('/pricing#credit-packs');
  });
});

describe('video cost preview', () => {
  it('prices each §9 option with quote()', async () => {
    render(<VideoScreen type="text" />);
    await flush();
    fireEvent.click(screen.getByRole('radio', { name: /8s · 720p/ }));
    expect(screen.getByTestId('cost').textContent).toBe(String(quote('text-to-video-8s-720p')));
    fireEvent.click(screen.getByRole('radio', { name: /4s · 1080p/ }));
    expect(screen.getByTestId('cost').textContent).toBe('180');
  });

  it('says per second until the upload tells the length', async () => {
    render(<VideoScreen type="lipSync" />);
    await flush();
    expect(screen.getByTestId('cost').textContent).toBe('—');
    expect(screen.getByText(/credits? per second of audio; upload it to see the total/)).toBeTruthy();
  });
});

describe('draft persistence', () => {
  it('a guest who submits gets the login modal and the text is still there after a remount', async () => {
    $user.set(null);
    const first = render(<SpeechScreen />);
    await flush();
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'Keep me' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate speech' }));
    expect($modal.get()).toBe('login');
    first.unmount();
    render(<SpeechScreen />);
    await flush();
    expect((screen.getByLabelText('Text') as HTMLTextAreaElement).value).toBe('Keep me');
  });

  it('restores only known fields of the right type', () => {
    writeDraft('t', { text: 5, quality: 'pro', extra: 'x' });
    expect(readDraft('t', { text: '', quality: 'common' })).toEqual({ text: '', quality: 'pro' });
    sessionStorage.setItem('playgroundDraft:t', '{broken');
    expect(readDraft('t', { text: 'a' })).toEqual({ text: 'a' });
  });

  it('dialogue lines survive a remount', async () => {
    const first = render(<DialogueScreen />);
    await flush();
    fireEvent.change(screen.getByLabelText('Line 1 text'), { target: { value: 'Hello there' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add line' }));
    first.unmount();
    render(<DialogueScreen />);
    await flush();
    expect((screen.getByLabelText('Line 1 text') as HTMLTextAreaElement).value).toBe('Hello there');
    expect(screen.getByLabelText('Line 3 text')).toBeTruthy();
  });
});

describe('validation', () => {
  it('shows what to fix instead of submitting empty text', async () => {
    $user.set({ userId: 'u1', userEmail: 'a@b.c', userName: 'a', userPoints: 10, company: '', valid: 0 } as never);
    render(<SpeechScreen />);
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Generate speech' }));
    expect(screen.getByText(/write something to speak/).getAttribute('role')).toBe('alert');
  });

  it('text, dialogue and files follow the server limits', () => {
    expect(textProblem('x'.repeat(TASK_LIMITS.maxTextChars))).toBeNull();
    expect(textProblem('x'.repeat(TASK_LIMITS.maxTextChars + 1))).toMatch(/at most/);
    expect(dialogueProblem([{ speaker: 'A', text: 'hi' }], {})).toMatch(/Speaker A: choose a voice/);
    expect(dialogueProblem([{ speaker: 'A', text: 'hi' }], { A: 'en-us-female-1' })).toBeNull();
    expect(checkFile({ type: 'audio/aiff', size: 10 }, ['audio'])).toHaveProperty('error');
    expect(checkFile({ type: 'audio/x-wav', size: 10 }, ['audio'])).toEqual({ kind: 'audio' });
    expect(checkFile({ type: 'image/png', size: 11 * 1024 * 1024 }, ['image'])).toHaveProperty('error');
    expect(checkDuration('video', 301)).toMatch(/limit is 300 s/);
    expect(checkDuration('video', 12)).toBeNull();
  });

  it('the script template fills the topic and round-trips through text', () => {
    const lines = generateScript('learning to cook', 'debate', ['Ann', 'Bo']);
    expect(lines[0]).toEqual({
      speaker: 'Ann',
      text: 'I think learning to cook deserves more attention than it gets.',
    });
    expect(parseScript(scriptToText(lines))).toEqual(lines);
    expect(generateScript('  ', 'lesson', ['A', 'B'])).toEqual([]);
  });
});
