// The dialogue draft: a stored draft is cleaned before use, and the request body carries trimmed lines and only the
// voices used.
import { describe, expect, it } from 'vitest';
import { TASK_LIMITS, VOICES } from '../../lib/product-rules';
import { cleanDialogue, DEFAULT_SPEAKERS, dialogueBody, initialDialogue, type DialogueDraft } from './dialogue-draft';

describe('initialDialogue', () => {
  it('starts with two speakers on different voices and one empty line each', () => {
    const d = initialDialogue();
    expect(d.speakers).toEqual(DEFAULT_SPEAKERS);
    expect(new Set(d.speakers.map((s) => s.voice)).size).toBe(2);
    expect(d.lines).toEqual([
      { speaker: 'Alex', text: '' },
      { speaker: 'Sam', text: '' },
    ]);
  });
});

describe('cleanDialogue', () => {
  it('drops malformed speakers and lines that sessionStorage may hold', () => {
    const stored = {
      speakers: [{ name: 'Ann', voice: VOICES[2]!.id }, null, { name: 5, voice: 'x' }, { name: 'Bo' }],
      lines: [{ speaker: 'Ann', text: 'Hi' }, { speaker: 'Bo' }, 'text', { speaker: 'Ann', text: 3 }],
    } as unknown as DialogueDraft;
    expect(cleanDialogue(stored)).toEqual({
      speakers: [{ name: 'Ann', voice: VOICES[2]!.id }],
      lines: [{ speaker: 'Ann', text: 'Hi' }],
    });
  });

  it('caps speakers and lines at the dialogue limits', () => {
    const speakers = Array.from({ length: TASK_LIMITS.maxDialogueSpeakers + 2 }, (_, i) => ({
      name: `S${i}`,
      voice: VOICES[0]!.id,
    }));
    const lines = Array.from({ length: TASK_LIMITS.maxDialogueLines + 5 }, () => ({ speaker: 'S0', text: 'x' }));
    const clean = cleanDialogue({ speakers, lines });
    expect(clean.speakers).toHaveLength(TASK_LIMITS.maxDialogueSpeakers);
    expect(clean.lines).toHaveLength(TASK_LIMITS.maxDialogueLines);
  });

  it('falls back to the initial draft when no speaker survives', () => {
    expect(cleanDialogue({ speakers: [], lines: [{ speaker: 'A', text: 'kept?' }] })).toEqual(initialDialogue());
  });
});

describe('dialogueBody', () => {
  it('trims every line and sends the voices of the speakers who speak, by trimmed name', () => {
    const body = dialogueBody({
      speakers: [
        { name: ' Ann ', voice: VOICES[0]!.id },
        { name: 'Bo', voice: VOICES[1]!.id },
        { name: 'Silent', voice: VOICES[2]!.id },
      ],
      lines: [
        { speaker: 'Ann ', text: '  Hello Bo.  ' },
        { speaker: 'Bo', text: 'Hi Ann!\n' },
      ],
    });
    expect(body).toEqual({
      lines: [
        { speaker: 'Ann', text: 'Hello Bo.' },
        { speaker: 'Bo', text: 'Hi Ann!' },
      ],
      voices: { Ann: VOICES[0]!.id, Bo: VOICES[1]!.id },
    });
  });
});
