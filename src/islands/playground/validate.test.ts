// Each screen's input checks say what to fix, at the same limits the server's task schemas enforce (TASK_LIMITS).
import { describe, expect, it } from 'vitest';
import { TASK_LIMITS, TEXT_TO_VIDEO_OPTIONS, VOICES } from '../../lib/product-rules';
import { dialogueProblem, promptProblem, textProblem, videoOptionProblem, voiceProblem } from './validate';

const voice = VOICES[0]!.id;

describe('textProblem', () => {
  it('asks for text when there is none, naming the field', () => {
    expect(textProblem('')).toBe('Text: write something to speak.');
    expect(textProblem(' \n\t ')).toBe('Text: write something to speak.');
    expect(textProblem('', 'Line 3')).toBe('Line 3: write something to speak.');
  });

  it('accepts up to the limit after trimming and says how much to cut beyond it', () => {
    expect(textProblem(`  ${'x'.repeat(TASK_LIMITS.maxTextChars)}  `)).toBeNull();
    expect(textProblem('x'.repeat(TASK_LIMITS.maxTextChars + 7))).toBe(
      `Text: at most ${TASK_LIMITS.maxTextChars} characters; shorten it by 7.`,
    );
  });
});

describe('promptProblem', () => {
  it('asks for a prompt, and for a shorter one beyond the limit', () => {
    expect(promptProblem('   ')).toBe('Prompt: describe what should happen in the video.');
    expect(promptProblem('x'.repeat(TASK_LIMITS.maxPromptChars))).toBeNull();
    expect(promptProblem('x'.repeat(TASK_LIMITS.maxPromptChars + 2))).toBe(
      `Prompt: at most ${TASK_LIMITS.maxPromptChars} characters; shorten it by 2.`,
    );
  });
});

describe('voiceProblem', () => {
  it('accepts only voices of the catalogue', () => {
    for (const v of VOICES) expect(voiceProblem(v.id)).toBeNull();
    expect(voiceProblem('nobody-1')).toBe('Voice: choose one of the voices.');
    expect(voiceProblem('')).toBe('Voice: choose one of the voices.');
  });
});

describe('dialogueProblem', () => {
  const line = (speaker: string, text = 'Hello') => ({ speaker, text });

  it('needs at least one line and at most the line limit', () => {
    expect(dialogueProblem([], {})).toBe('Add at least one line.');
    const many = Array.from({ length: TASK_LIMITS.maxDialogueLines + 3 }, () => line('A'));
    expect(dialogueProblem(many, { A: voice })).toBe(`At most ${TASK_LIMITS.maxDialogueLines} lines; remove 3.`);
    expect(dialogueProblem(many.slice(0, TASK_LIMITS.maxDialogueLines), { A: voice })).toBeNull();
  });

  it('allows at most the speaker limit, counting names after trimming', () => {
    const names = Array.from({ length: TASK_LIMITS.maxDialogueSpeakers + 1 }, (_, i) => `S${i}`);
    const voices = Object.fromEntries(names.map((n) => [n, voice]));
    expect(
      dialogueProblem(
        names.map((n) => line(n)),
        voices,
      ),
    ).toBe(`At most ${TASK_LIMITS.maxDialogueSpeakers} speakers.`);
    expect(dialogueProblem([line('A'), line(' A '), line('A  ')], { A: voice })).toBeNull();
  });

  it('names the first line that needs a speaker, a shorter name or text', () => {
    expect(dialogueProblem([line('A'), line('  ')], { A: voice })).toBe('Line 2: choose a speaker.');
    expect(dialogueProblem([line('x'.repeat(41))], { ['x'.repeat(41)]: voice })).toBe(
      'Line 1: speaker names are at most 40 characters.',
    );
    expect(dialogueProblem([line('A'), line('A', ' ')], { A: voice })).toBe('Line 2: write something to speak.');
    expect(dialogueProblem([line('A', 'x'.repeat(TASK_LIMITS.maxTextChars + 1))], { A: voice })).toBe(
      `Line 1: at most ${TASK_LIMITS.maxTextChars} characters; shorten it by 1.`,
    );
  });

  it('needs a catalogue voice for every speaker with a line', () => {
    expect(dialogueProblem([line('Ann'), line('Bo')], { Ann: voice })).toBe('Speaker Bo: choose a voice.');
    expect(dialogueProblem([line('Ann'), line('Bo')], { Ann: voice, Bo: 'made-up' })).toBe(
      'Speaker Bo: choose a voice.',
    );
    expect(dialogueProblem([line('Ann'), line('Bo')], { Ann: voice, Bo: VOICES[1]!.id })).toBeNull();
  });
});

describe('videoOptionProblem', () => {
  it('accepts the §9 clip options and lists them otherwise', () => {
    for (const o of TEXT_TO_VIDEO_OPTIONS) expect(videoOptionProblem(o.durationS, o.resolution)).toBeNull();
    expect(videoOptionProblem(8, '1080p')).toBe('Choose one of: 4s 512p, 4s 720p, 8s 720p, 4s 1080p.');
  });
});
