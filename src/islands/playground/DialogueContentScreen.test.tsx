// The script screen: a template filled from the topic, checks before handing over, and the script arriving on the
// dialogue screen.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { TASK_LIMITS, VOICES } from '../../lib/product-rules';
import DialogueContentScreen from './DialogueContentScreen';
import DialogueScreen from './DialogueScreen';
import { generateScript, scriptToText } from './script-template';

let assign: MockInstance<Location['assign']>;

beforeEach(() => {
  // No server: the dialogue screen's history and feature calls fail quietly, as offline.
  vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
  assign = vi.spyOn(location, 'assign').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

const flush = () => act(() => Promise.resolve());
const script = () => screen.getByLabelText('Script') as HTMLTextAreaElement;
const type = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } });

async function open() {
  render(<DialogueContentScreen />);
  await flush();
}

describe('DialogueContentScreen', () => {
  it('asks for a topic, and for two different speaker names, before filling the template', async () => {
    await open();
    fireEvent.click(screen.getByRole('button', { name: 'Fill from template' }));
    expect(screen.getByRole('alert').textContent).toBe(
      'Topic: say what the dialogue is about, e.g. "learning to cook".',
    );
    type(screen.getByLabelText('Topic'), 'tea');
    type(screen.getByLabelText('Speaker 2'), 'Alex');
    fireEvent.click(screen.getByRole('button', { name: 'Fill from template' }));
    expect(screen.getByRole('alert').textContent).toBe('Give the two speakers different names.');
    expect(script().value).toBe('');
  });

  it('fills the chosen style with the topic and speaker names', async () => {
    await open();
    type(screen.getByLabelText('Topic'), 'learning to cook');
    type(screen.getByRole('combobox', { name: /Style/ }), 'debate');
    type(screen.getByLabelText('Speaker 1'), 'Ann');
    type(screen.getByLabelText('Speaker 2'), 'Bo');
    fireEvent.click(screen.getByRole('button', { name: 'Fill from template' }));
    expect(script().value).toBe(scriptToText(generateScript('learning to cook', 'debate', ['Ann', 'Bo'])));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('refuses to hand over an empty script or one with too many speakers', async () => {
    await open();
    fireEvent.click(screen.getByRole('button', { name: 'Voice it in Dialogue' }));
    expect(screen.getByRole('alert').textContent).toBe('Script: write or generate some lines first.');
    const crowd = Array.from({ length: TASK_LIMITS.maxDialogueSpeakers + 1 }, (_, i) => `P${i}: hello`).join('\n');
    type(script(), crowd);
    fireEvent.click(screen.getByRole('button', { name: 'Voice it in Dialogue' }));
    expect(screen.getByRole('alert').textContent).toBe(`At most ${TASK_LIMITS.maxDialogueSpeakers} speakers.`);
    expect(assign).not.toHaveBeenCalled();
  });

  it('hands the script to the dialogue screen, each speaker on its own voice', async () => {
    await open();
    type(script(), 'Ann: Hi Bo!\nBo: Hello Ann.\nAnn: Ready?');
    fireEvent.click(screen.getByRole('button', { name: 'Voice it in Dialogue' }));
    expect(assign).toHaveBeenCalledWith('/playground/dialogue');
    cleanup();

    render(<DialogueScreen />);
    await flush();
    expect(
      ['Line 1 text', 'Line 2 text', 'Line 3 text'].map((l) => (screen.getByLabelText(l) as HTMLTextAreaElement).value),
    ).toEqual(['Hi Bo!', 'Hello Ann.', 'Ready?']);
    expect((screen.getByLabelText('Speaker of line 2') as HTMLSelectElement).value).toBe('Bo');
    expect((screen.getByLabelText('Voice of Ann') as HTMLSelectElement).value).toBe(VOICES[0]!.id);
    expect((screen.getByLabelText('Voice of Bo') as HTMLSelectElement).value).toBe(VOICES[1]!.id);
  });
});
