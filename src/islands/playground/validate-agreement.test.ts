// The playground's form checks (validate.ts) and the server's task schemas (src/lib/api-contract) agree: the same
// inputs, valid and invalid for each rule, are taken by both or refused by both, so the form never lets through what
// the server refuses, nor stops what it would take.
import { describe, expect, it } from 'vitest';
import { animateBody, dialogueBody, ttsBody } from '../../lib/api-contract';
import { TASK_LIMITS, TEXT_TO_VIDEO_OPTIONS, VOICES } from '../../lib/product-rules';
import {
  dialogueProblem,
  promptProblem,
  textProblem,
  videoOptionProblem,
  voiceProblem,
  type DialogueLine,
} from './validate';

const voice = VOICES[0]!.id;
const other = VOICES[1]!.id;
const x = (n: number) => 'x'.repeat(n);
/** Characters of two UTF-16 units each: both sides count them as one character, as zod's max does. */
const wide = (n: number) => '😀'.repeat(n);

type Case<T> = [name: string, input: T];
/** Both sides' verdicts on each case: true where the input is taken. */
function verdicts<T>(cases: Case<T>[], form: (input: T) => string | null, server: (input: T) => boolean) {
  return cases.map(([name, input]) => ({ name, form: form(input) === null, server: server(input) }));
}
function expectAgreement(rows: Array<{ name: string; form: boolean; server: boolean }>) {
  // Both verdicts occur, or the cases test one side only.
  expect(rows.some((r) => r.server)).toBe(true);
  expect(rows.some((r) => !r.server)).toBe(true);
  expect(rows.filter((r) => r.form !== r.server)).toEqual([]);
}

describe('form checks and server schemas agree', () => {
  it('on speech text', () => {
    const max = TASK_LIMITS.maxTextChars;
    const cases: Case<string>[] = [
      ['empty', ''],
      ['blank', ' \n\t '],
      ['one character', 'a'],
      ['at the limit', x(max)],
      ['at the limit with spaces around', `  ${x(max)}  `],
      ['one over', x(max + 1)],
      ['wide characters at the limit', wide(max)],
      ['wide characters one over', wide(max + 1)],
    ];
    expectAgreement(verdicts(cases, textProblem, (text) => ttsBody.safeParse({ text, voiceId: voice }).success));
  });

  it('on the voice', () => {
    const cases: Case<string>[] = [
      ['a listed voice', voice],
      ['another listed voice', other],
      ['an unknown voice', 'no-such-voice'],
      ['none', ''],
    ];
    expectAgreement(verdicts(cases, voiceProblem, (voiceId) => ttsBody.safeParse({ text: 'hi', voiceId }).success));
  });

  it('on a video prompt', () => {
    const max = TASK_LIMITS.maxPromptChars;
    const cases: Case<string>[] = [
      ['empty', ''],
      ['blank', '   '],
      ['a prompt', 'a cat on a skateboard'],
      ['at the limit', x(max)],
      ['at the limit with spaces around', ` ${x(max)} `],
      ['one over', x(max + 1)],
      ['wide characters at the limit', wide(max)],
      ['wide characters one over', wide(max + 1)],
    ];
    expectAgreement(
      verdicts(cases, promptProblem, (prompt) => animateBody.safeParse({ type: 'text', prompt }).success),
    );
  });

  it("on a clip's length and resolution", () => {
    const durations = [...new Set([...TEXT_TO_VIDEO_OPTIONS.map((o) => o.durationS), 4, 8])];
    const resolutions = [...new Set([...TEXT_TO_VIDEO_OPTIONS.map((o) => o.resolution), '480p'])];
    const cases: Case<[number, string]>[] = durations.flatMap((d) =>
      resolutions.map((r): Case<[number, string]> => [`${d}s ${r}`, [d, r]]),
    );
    expectAgreement(
      verdicts(
        cases,
        ([duration, resolution]) => videoOptionProblem(duration, resolution),
        ([duration, resolution]) =>
          animateBody.safeParse({ type: 'text', prompt: 'a clip', duration, resolution }).success,
      ),
    );
  });

  it('on a dialogue', () => {
    const line = (speaker: string, text = 'Hello there'): DialogueLine => ({ speaker, text });
    const speakers = (n: number) => Array.from({ length: n }, (_, i) => `S${i + 1}`);
    const voicesOf = (names: string[]) => Object.fromEntries(names.map((n) => [n, voice]));
    type Dialogue = { lines: DialogueLine[]; voices: Record<string, string> };
    const most = TASK_LIMITS.maxDialogueSpeakers;
    const cases: Case<Dialogue>[] = [
      ['two speakers', { lines: [line('Ann'), line('Bob')], voices: { Ann: voice, Bob: other } }],
      ['no lines', { lines: [], voices: {} }],
      [
        'the most lines',
        { lines: Array.from({ length: TASK_LIMITS.maxDialogueLines }, () => line('Ann')), voices: { Ann: voice } },
      ],
      [
        'one line too many',
        { lines: Array.from({ length: TASK_LIMITS.maxDialogueLines + 1 }, () => line('Ann')), voices: { Ann: voice } },
      ],
      ['the most speakers', { lines: speakers(most).map((s) => line(s)), voices: voicesOf(speakers(most)) }],
      ['one speaker too many', { lines: speakers(most + 1).map((s) => line(s)), voices: voicesOf(speakers(most + 1)) }],
      ['a line without a speaker', { lines: [line('')], voices: {} }],
      ['a blank speaker', { lines: [line('  ')], voices: {} }],
      [
        'a speaker name at the limit',
        { lines: [line(x(TASK_LIMITS.maxSpeakerNameChars))], voices: voicesOf([x(TASK_LIMITS.maxSpeakerNameChars)]) },
      ],
      [
        'a speaker name one over',
        {
          lines: [line(x(TASK_LIMITS.maxSpeakerNameChars + 1))],
          voices: voicesOf([x(TASK_LIMITS.maxSpeakerNameChars + 1)]),
        },
      ],
      [
        'a speaker name of wide characters at the limit',
        {
          lines: [line(wide(TASK_LIMITS.maxSpeakerNameChars))],
          voices: voicesOf([wide(TASK_LIMITS.maxSpeakerNameChars)]),
        },
      ],
      ['a speaker name with spaces around', { lines: [line(' Ann ')], voices: { Ann: voice } }],
      ['an empty line', { lines: [line('Ann', '')], voices: { Ann: voice } }],
      ['a line at the text limit', { lines: [line('Ann', x(TASK_LIMITS.maxTextChars))], voices: { Ann: voice } }],
      ['a line over the text limit', { lines: [line('Ann', x(TASK_LIMITS.maxTextChars + 1))], voices: { Ann: voice } }],
      ['a speaker without a voice', { lines: [line('Ann'), line('Bob')], voices: { Ann: voice } }],
      ['a speaker with an unknown voice', { lines: [line('Ann')], voices: { Ann: 'no-such-voice' } }],
    ];
    expectAgreement(
      verdicts(
        cases,
        ({ lines, voices }) => dialogueProblem(lines, voices),
        (body) => dialogueBody.safeParse(body).success,
      ),
    );
  });
});
