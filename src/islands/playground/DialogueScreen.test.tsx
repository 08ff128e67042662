// The dialogue screen on the real server: editing speakers and lines, what to fix, and the request with a preview equal
// to the hold.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RoutedBrowser } from '../../../server/test-support/browser';
import { createTasksTestApp, createUser, type TasksTestApp } from '../../../server/test-support/tasks';
import { TASK_LIMITS, VOICES } from '../../lib/product-rules';
import { resetPage, signInPage } from '../shared/page.fixtures';
import DialogueScreen from './DialogueScreen';
import { dialogueCost } from './pricing';

const DIALOGUE = '/api-playground/speech/v1/dialogue';

let t: TasksTestApp;
let net: RoutedBrowser;

beforeEach(async () => {
  // The queue is not started: the submitted task stays queued, which is all these tests need.
  t = await createTasksTestApp();
  const user = await createUser(t, 100);
  net = await signInPage(t, user);
});
afterEach(() => resetPage(t));

const flush = () => act(() => Promise.resolve());
const lineText = (n: number) => screen.getByLabelText(`Line ${n} text`) as HTMLTextAreaElement;
const lineSpeaker = (n: number) => (screen.getByLabelText(`Speaker of line ${n}`) as HTMLSelectElement).value;
const type = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } });

describe('DialogueScreen', () => {
  it('names the first line to fix and sends nothing', async () => {
    render(<DialogueScreen />);
    await flush();
    type(lineText(1), 'Hello');
    fireEvent.click(screen.getByRole('button', { name: 'Generate dialogue' }));
    expect(screen.getByRole('alert').textContent).toBe('Line 2: write something to speak.');
    expect(net.bodiesTo(DIALOGUE)).toEqual([]);
  });

  it('renaming a speaker renames their lines; a new line goes to the other speaker; lines reorder and go', async () => {
    render(<DialogueScreen />);
    await flush();
    type(screen.getByLabelText('Speaker 1 name'), 'Ann');
    expect([lineSpeaker(1), lineSpeaker(2)]).toEqual(['Ann', 'Sam']);
    fireEvent.click(screen.getByRole('button', { name: 'Add line' }));
    expect(lineSpeaker(3)).toBe('Ann');
    type(lineText(3), 'third');
    fireEvent.click(screen.getByRole('button', { name: 'Move line 3 up' }));
    expect([lineText(2).value, lineSpeaker(2)]).toEqual(['third', 'Ann']);
    expect(screen.getByRole('button', { name: 'Move line 1 up' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Move line 3 down' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Remove line 2' }));
    expect(screen.queryByLabelText('Line 3 text')).toBeNull();
    expect(lineText(2).value).toBe('');
  });

  it(`adds speakers up to ${TASK_LIMITS.maxDialogueSpeakers}, each on a voice not yet used`, async () => {
    render(<DialogueScreen />);
    await flush();
    for (let i = 2; i < TASK_LIMITS.maxDialogueSpeakers; i++)
      fireEvent.click(screen.getByRole('button', { name: 'Add speaker' }));
    expect(screen.queryByRole('button', { name: 'Add speaker' })).toBeNull();
    const voices = Array.from(
      { length: TASK_LIMITS.maxDialogueSpeakers },
      (_, i) =>
        (
          screen.getByLabelText(
            i < 2 ? `Voice of ${['Alex', 'Sam'][i]}` : `Voice of Speaker ${i + 1}`,
          ) as HTMLSelectElement
        ).value,
    );
    expect(new Set(voices).size).toBe(TASK_LIMITS.maxDialogueSpeakers);
  });

  it('sends the trimmed lines and the voice of each speaker; the server holds the previewed cost', async () => {
    render(<DialogueScreen />);
    await flush();
    type(screen.getByLabelText('Speaker 1 name'), 'Ann');
    type(screen.getByLabelText('Voice of Sam'), 'es-male-1');
    type(lineText(1), '  Hello Sam, shall we start?  ');
    type(lineText(2), 'Yes, '.repeat(60));
    const lines = [
      { speaker: 'Ann', text: 'Hello Sam, shall we start?' },
      { speaker: 'Sam', text: 'Yes, '.repeat(60).trim() },
    ];
    const cost = dialogueCost(lines);
    expect(screen.getByTestId('cost').textContent).toBe(String(cost));
    fireEvent.click(screen.getByRole('button', { name: 'Generate dialogue' }));
    await waitFor(() =>
      expect(net.bodiesTo(DIALOGUE)).toEqual([{ lines, voices: { Ann: VOICES[0]!.id, Sam: 'es-male-1' } }]),
    );
    await waitFor(async () =>
      expect(await t.database.db.selectFrom('tasks').select(['feature', 'credits_held']).execute()).toEqual([
        { feature: 'dialogue', credits_held: cost },
      ]),
    );
  });
});
