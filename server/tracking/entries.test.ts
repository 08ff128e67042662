// The hand-written entry check refuses what the collector must not store and keeps exactly the §3 fields of what it
// takes.
import { describe, expect, it } from 'vitest';
import { TRACKING_LIMITS } from '../../src/lib/product-rules';
import { checkEntry, EntryProblem } from './entries';
import { TRACK_ENTRY as good } from '../test-support/tracking-events';

describe('checkEntry', () => {
  it('keeps the §3 fields, drops any other, and hands the logmap JSON on so it is serialized once', () => {
    const checked = checkEntry({ ...good, extra: 'dropped', tab: 't' });
    expect(checked).toEqual({ ...good, logmapJson: '{"n":1}' });
    expect(checkEntry({ ...good, logmap: Object.assign(Object.create(null) as object, { a: 1 }) }).logmapJson).toBe(
      '{"a":1}',
    );
  });

  const long = 'x'.repeat(TRACKING_LIMITS.fieldMaxLength + 1);
  const refused: Array<[string, unknown, RegExp]> = [
    ['not an object', 'entry', /^entry: /],
    ['an array', [good], /^entry: /],
    ['null', null, /^entry: /],
    ['a missing entryId', { ...good, entryId: undefined }, /^entryId: must be a string/],
    ['an empty entryId', { ...good, entryId: '' }, /^entryId: must not be empty/],
    ['a numeric entryId', { ...good, entryId: 7 }, /^entryId: /],
    ['an empty coldStartId', { ...good, coldStartId: '' }, /^coldStartId: /],
    ['an over-long uid', { ...good, uid: long }, /^uid: must be at most/],
    ['an over-long ffid', { ...good, ffid: long }, /^ffid: /],
    ['a missing foid', { ...good, foid: undefined }, /^foid: /],
    ['seqId 0', { ...good, seqId: 0 }, /^seqId: must be at least 1/],
    ['seqId past the wrap', { ...good, seqId: 10_001 }, /^seqId: must be at most 10000/],
    ['a fractional seqId', { ...good, seqId: 1.5 }, /^seqId: must be an integer/],
    ['seqId as text', { ...good, seqId: '1' }, /^seqId: /],
    ['a negative time', { ...good, time: -1 }, /^time: /],
    ['an unsafe time', { ...good, time: 2 ** 60 }, /^time: must be an integer/],
    ['an empty oid', { ...good, oid: '' }, /^oid: /],
    ['an unknown action code', { ...good, action: 99 }, /^action: must be a known action code/],
    ['an action name instead of its code', { ...good, action: 'click' }, /^action: /],
    ['a logmap array', { ...good, logmap: [] }, /^logmap: must be an object/],
    ['a null logmap', { ...good, logmap: null }, /^logmap: /],
    ['a missing logmap', { ...good, logmap: undefined }, /^logmap: /],
    [
      'an oversized logmap',
      { ...good, logmap: { big: 'x'.repeat(TRACKING_LIMITS.logmapMaxBytes) } },
      /^logmap: must serialize to at most/,
    ],
  ];
  it('counts the logmap limit in UTF-8 bytes, not UTF-16 units', () => {
    // {"s":"…"} is 8 bytes around the text; "é" is two bytes, "€" three, "😀" four (two UTF-16 units).
    const max = TRACKING_LIMITS.logmapMaxBytes;
    const fits = (s: string) => () => checkEntry({ ...good, logmap: { s } });
    expect(fits('x'.repeat(max - 8))).not.toThrow();
    expect(fits('é'.repeat((max - 8) / 2))).not.toThrow();
    expect(fits('é'.repeat((max - 8) / 2 + 1))).toThrow(/^logmap: must serialize to at most/);
    expect(fits('€'.repeat(Math.ceil((max - 8) / 3) + 1))).toThrow(/^logmap: /);
    expect(fits('😀'.repeat((max - 8) / 4 + 1))).toThrow(/^logmap: /);
  });

  it.each(refused)('refuses %s, naming the field', (_, item, message) => {
    expect(() => checkEntry(item)).toThrow(EntryProblem);
    expect(() => checkEntry(item)).toThrow(message);
  });
});
