// A paste that passes a field's limit is measured: what the browser will drop, given the text already there and the
// selection.
import { describe, expect, it } from 'vitest';
import { pasteCutNotice } from '../product-rules';
import { pasteOverflow, type LimitedField } from './paste-limit';

const field = (value: string, maxLength: number, selection?: [number, number], tagName = 'TEXTAREA'): LimitedField => ({
  value,
  maxLength,
  selectionStart: selection?.[0] ?? value.length,
  selectionEnd: selection?.[1] ?? value.length,
  tagName,
});

describe('pasteOverflow', () => {
  it('6,000 characters into an empty 5,000-character field drop 1,000', () => {
    expect(pasteOverflow(field('', 5000), 'x'.repeat(6000))).toBe(1000);
    expect(pasteCutNotice(5000, 1000)).toBe(
      'Your paste was longer than the 5,000-character limit, so the last 1,000 characters were left out.',
    );
  });

  it('counts the text already there and what the selection replaces', () => {
    expect(pasteOverflow(field('abcde', 10), '123456')).toBe(1);
    expect(pasteOverflow(field('abcde', 10, [0, 5]), '123456')).toBe(0);
    expect(pasteOverflow(field('abcde', 10, [1, 3]), '12345678')).toBe(1);
  });

  it('a paste that fits, or a field without a limit, drops nothing', () => {
    expect(pasteOverflow(field('', 5000), 'hello')).toBe(0);
    expect(pasteOverflow(field('', -1), 'x'.repeat(10_000))).toBe(0);
  });

  it('line breaks count as the field stores them: one \\n in a textarea, none in an input', () => {
    expect(pasteOverflow(field('', 3), 'a\r\nb')).toBe(0);
    expect(pasteOverflow(field('', 2, undefined, 'INPUT'), 'a\r\nb')).toBe(0);
    expect(pasteOverflow(field('', 2), 'a\r\nb')).toBe(1);
  });
});
