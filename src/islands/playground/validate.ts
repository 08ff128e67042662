// Input checks of each screen, matching src/lib/api-contract/task-schemas.ts (validate-agreement.test.ts holds them
// equal): each answers null or what to fix.
import { TASK_LIMITS, TEXT_TO_VIDEO_OPTIONS, voiceById } from '../../lib/product-rules';

/** The server's limits count characters (code points, as zod's max does), so an emoji is one, not two. */
const chars = (text: string) => [...text].length;

export function textProblem(text: string, what = 'Text'): string | null {
  const t = text.trim();
  if (!t) return `${what}: write something to speak.`;
  if (chars(t) > TASK_LIMITS.maxTextChars)
    return `${what}: at most ${TASK_LIMITS.maxTextChars} characters; shorten it by ${chars(t) - TASK_LIMITS.maxTextChars}.`;
  return null;
}

export function promptProblem(prompt: string): string | null {
  const t = prompt.trim();
  if (!t) return 'Prompt: describe what should happen in the video.';
  if (chars(t) > TASK_LIMITS.maxPromptChars)
    return `Prompt: at most ${TASK_LIMITS.maxPromptChars} characters; shorten it by ${chars(t) - TASK_LIMITS.maxPromptChars}.`;
  return null;
}

export function voiceProblem(voiceId: string): string | null {
  return voiceById(voiceId) ? null : 'Voice: choose one of the voices.';
}

export interface DialogueLine {
  speaker: string;
  text: string;
}

export function dialogueProblem(lines: readonly DialogueLine[], voices: Record<string, string>): string | null {
  if (lines.length === 0) return 'Add at least one line.';
  if (lines.length > TASK_LIMITS.maxDialogueLines)
    return `At most ${TASK_LIMITS.maxDialogueLines} lines; remove ${lines.length - TASK_LIMITS.maxDialogueLines}.`;
  const speakers = new Set(lines.map((l) => l.speaker.trim()));
  if (speakers.size > TASK_LIMITS.maxDialogueSpeakers) return `At most ${TASK_LIMITS.maxDialogueSpeakers} speakers.`;
  for (const [i, line] of lines.entries()) {
    const name = line.speaker.trim();
    if (!name) return `Line ${i + 1}: choose a speaker.`;
    if (chars(name) > TASK_LIMITS.maxSpeakerNameChars)
      return `Line ${i + 1}: speaker names are at most ${TASK_LIMITS.maxSpeakerNameChars} characters.`;
    const problem = textProblem(line.text, `Line ${i + 1}`);
    if (problem) return problem;
    if (!voiceById(voices[name] ?? '')) return `Speaker ${name}: choose a voice.`;
  }
  return null;
}

export function videoOptionProblem(durationS: number, resolution: string): string | null {
  return TEXT_TO_VIDEO_OPTIONS.some((o) => o.durationS === durationS && o.resolution === resolution)
    ? null
    : `Choose one of: ${TEXT_TO_VIDEO_OPTIONS.map((o) => `${o.durationS}s ${o.resolution}`).join(', ')}.`;
}
