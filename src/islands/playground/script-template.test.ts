// The dialogue script: templates filled from a topic, and the "Name: text" form that is edited and parsed back.
import { describe, expect, it } from 'vitest';
import { generateScript, parseScript, SCRIPT_STYLES, scriptToText } from './script-template';

describe('generateScript', () => {
  it('fills every style with the topic, capitalised where a sentence starts with it, alternating the two speakers', () => {
    for (const { id } of SCRIPT_STYLES) {
      const lines = generateScript('  remote   work ', id, ['Ann', 'Bo']);
      expect(lines.length).toBeGreaterThanOrEqual(6);
      expect(lines[0]!.speaker).toBe('Ann');
      expect(new Set(lines.map((l) => l.speaker))).toEqual(new Set(['Ann', 'Bo']));
      expect(lines.some((l) => l.text.includes('remote work'))).toBe(true);
      expect(lines.every((l) => !l.text.includes('{'))).toBe(true);
    }
    expect(generateScript('remote work', 'interview', ['Ann', 'Bo'])[1]!.text).toBe(
      'Thanks for having me. Remote work is something I care about a lot.',
    );
  });

  it('gives no lines for an empty topic', () => {
    expect(generateScript(' \n ', 'debate', ['Ann', 'Bo'])).toEqual([]);
  });
});

describe('parseScript and scriptToText', () => {
  it('round-trips lines through the editable text', () => {
    const lines = generateScript('tea', 'lesson', ['Teacher', 'Student']);
    expect(scriptToText(lines).split('\n')[0]).toBe("Teacher: Today's lesson is about tea. Ready?");
    expect(parseScript(scriptToText(lines))).toEqual(lines);
  });

  it('continues the previous line for text without a name, and calls a first unnamed line the Narrator', () => {
    expect(parseScript('Once upon a time\nAnn:  Hi  \n  and welcome\n\nBo: Hello')).toEqual([
      { speaker: 'Narrator', text: 'Once upon a time' },
      { speaker: 'Ann', text: 'Hi and welcome' },
      { speaker: 'Bo', text: 'Hello' },
    ]);
  });

  it('drops named lines with nothing said, and does not take a long prefix for a name', () => {
    expect(parseScript('Ann:\nBo: ok')).toEqual([{ speaker: 'Bo', text: 'ok' }]);
    const long = `${'x'.repeat(41)}: text`;
    expect(parseScript(long)).toEqual([{ speaker: 'Narrator', text: long }]);
  });
});
