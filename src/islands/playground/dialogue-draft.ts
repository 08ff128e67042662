// The dialogue screen's draft: speakers with voices and ordered lines; shared with the script screen that fills it.
import { TASK_LIMITS, VOICES } from '../../lib/product-rules';
import type { DialogueLine } from './validate';

export interface Speaker {
  name: string;
  voice: string;
}

export interface DialogueDraft {
  speakers: Speaker[];
  lines: DialogueLine[];
}

export const DIALOGUE_DRAFT_KEY = 'dialogue';

export const DEFAULT_SPEAKERS: Speaker[] = [
  { name: 'Alex', voice: VOICES[0]!.id },
  { name: 'Sam', voice: VOICES[1]!.id },
];

export function initialDialogue(): DialogueDraft {
  return {
    speakers: DEFAULT_SPEAKERS,
    lines: [
      { speaker: 'Alex', text: '' },
      { speaker: 'Sam', text: '' },
    ],
  };
}

const isString = (v: unknown): v is string => typeof v === 'string';

/** Keeps only well-formed entries of a stored draft (sessionStorage may hold anything). */
export function cleanDialogue(d: DialogueDraft): DialogueDraft {
  const speakers = d.speakers
    .filter((s) => s && isString(s.name) && isString(s.voice))
    .slice(0, TASK_LIMITS.maxDialogueSpeakers);
  const lines = d.lines
    .filter((l) => l && isString(l.speaker) && isString(l.text))
    .slice(0, TASK_LIMITS.maxDialogueLines);
  return speakers.length ? { speakers, lines } : initialDialogue();
}

/** The request body: each line's speaker and text, and the voice of every speaker that has a line. */
export function dialogueBody(d: DialogueDraft): { lines: DialogueLine[]; voices: Record<string, string> } {
  const lines = d.lines.map((l) => ({ speaker: l.speaker.trim(), text: l.text.trim() }));
  const voices: Record<string, string> = {};
  for (const s of d.speakers) if (lines.some((l) => l.speaker === s.name.trim())) voices[s.name.trim()] = s.voice;
  return { lines, voices };
}
