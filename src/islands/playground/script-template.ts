// A template-based dialogue script from a topic, written locally without AI: a starting point to edit, not a finished
// text.
import type { DialogueLine } from './validate';

export type ScriptStyle = 'interview' | 'debate' | 'lesson';

/** Each template is a list of [speaker index, sentence with {topic}] pairs; speaker 0 leads. */
const TEMPLATES: Record<ScriptStyle, ReadonlyArray<readonly [0 | 1, string]>> = {
  interview: [
    [0, 'Welcome to the show. Today we are talking about {topic}.'],
    [1, 'Thanks for having me. {Topic} is something I care about a lot.'],
    [0, 'For someone new to it, how would you explain {topic}?'],
    [1, 'In short: start with why it matters, then look at one concrete example.'],
    [0, 'What is the most common mistake people make with {topic}?'],
    [1, 'Trying to do everything at once. Small, steady steps work better.'],
    [0, 'Thank you. Any last advice for our listeners?'],
    [1, 'Be curious about {topic}, and ask questions early.'],
  ],
  debate: [
    [0, 'I think {topic} deserves more attention than it gets.'],
    [1, 'I am not so sure. What makes {topic} so important?'],
    [0, 'It affects everyday decisions, even when we do not notice it.'],
    [1, 'Fair, but there are trade-offs. Time and money are limited.'],
    [0, 'True. So where would you draw the line?'],
    [1, 'Where the benefit is clear and measurable. Then I would agree with you.'],
  ],
  lesson: [
    [0, "Today's lesson is about {topic}. Ready?"],
    [1, 'Ready. Where do we start?'],
    [0, 'With the basics: what {topic} is, and where you meet it.'],
    [1, 'Can you give me an example?'],
    [0, 'Sure. Think of one situation from your own week that involves {topic}.'],
    [1, 'Got one. What should I notice about it?'],
    [0, 'Notice what changes when you pay attention to it. That is the key idea.'],
    [1, 'That makes sense. Thanks!'],
  ],
};

export const SCRIPT_STYLES: ReadonlyArray<{ id: ScriptStyle; label: string }> = [
  { id: 'interview', label: 'Interview' },
  { id: 'debate', label: 'Friendly debate' },
  { id: 'lesson', label: 'Lesson' },
];

/** Fills a template with the topic and two speaker names. An empty topic gives no lines. */
export function generateScript(topic: string, style: ScriptStyle, speakers: readonly [string, string]): DialogueLine[] {
  const t = topic.trim().replace(/\s+/g, ' ');
  if (!t) return [];
  const capital = t.charAt(0).toUpperCase() + t.slice(1);
  return TEMPLATES[style].map(([who, sentence]) => ({
    speaker: speakers[who],
    text: sentence.replaceAll('{topic}', t).replaceAll('{Topic}', capital),
  }));
}

/** "Name: text" per line, the editable form of a script. */
export function scriptToText(lines: readonly DialogueLine[]): string {
  return lines.map((l) => `${l.speaker}: ${l.text}`).join('\n');
}

/** Parses "Name: text" lines back; lines without a "Name:" continue the previous speaker's line. */
export function parseScript(text: string): DialogueLine[] {
  const lines: DialogueLine[] = [];
  for (const raw of text.split('\n')) {
    const row = raw.trim();
    if (!row) continue;
    const match = /^([^:]{1,40}):\s*(.*)$/.exec(row);
    if (match) lines.push({ speaker: match[1]!.trim(), text: match[2]!.trim() });
    else if (lines.length) lines[lines.length - 1]!.text += ` ${row}`;
    else lines.push({ speaker: 'Narrator', text: row });
  }
  return lines.filter((l) => l.text);
}
