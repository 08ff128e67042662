// The collector's hand-written entry check and the entry's zod schema (src/lib/api-contract/tracking-entry.ts) agree:
// the same inputs, one per rule, are taken or refused by both, on the same field, and what both take is the same.
import { describe, expect, it } from 'vitest';
import { TRACKING, TRACKING_ACTIONS, TRACKING_LIMITS } from '../../src/lib/product-rules';
import { trackEntry } from '../../src/lib/api-contract/tracking-entry';
import { checkEntry, EntryProblem } from './entries';
import { TRACK_ENTRY as good } from '../test-support/tracking-events';

const long = 'x'.repeat(TRACKING_LIMITS.fieldMaxLength + 1);
const edge = 'x'.repeat(TRACKING_LIMITS.fieldMaxLength);
const maxLogmap = TRACKING_LIMITS.logmapMaxBytes - '{"s":""}'.length;

const cases: Array<[name: string, input: unknown]> = [
  ['a good entry', good],
  ['extra fields', { ...good, tab: 't', extra: 1 }],
  ['fields at their longest', { ...good, entryId: edge, uid: edge, oid: edge, foid: edge, ffid: edge }],
  ['the last seqId before the wrap', { ...good, seqId: TRACKING.seqIdWrap }],
  ['time 0', { ...good, time: 0 }],
  ['every known action', { ...good, action: Math.max(...Object.values(TRACKING_ACTIONS)) }],
  ['a null-prototype logmap', { ...good, logmap: Object.assign(Object.create(null) as object, { a: 1 }) }],
  ['a logmap at its byte limit', { ...good, logmap: { s: 'x'.repeat(maxLogmap) } }],
  ['a logmap one two-byte character over', { ...good, logmap: { s: 'é'.repeat(maxLogmap / 2 + 1) } }],
  ['a logmap past its limit', { ...good, logmap: { s: 'x'.repeat(maxLogmap + 1) } }],
  ['not an object', 'entry'],
  ['an array', [good]],
  ['null', null],
  ...(['entryId', 'coldStartId', 'oid'] as const).flatMap((f): Array<[string, unknown]> => [
    [`an empty ${f}`, { ...good, [f]: '' }],
    [`a missing ${f}`, { ...good, [f]: undefined }],
    [`an over-long ${f}`, { ...good, [f]: long }],
    [`a numeric ${f}`, { ...good, [f]: 7 }],
  ]),
  ...(['uid', 'foid', 'ffid'] as const).flatMap((f): Array<[string, unknown]> => [
    [`an empty ${f}`, { ...good, [f]: '' }],
    [`a missing ${f}`, { ...good, [f]: undefined }],
    [`an over-long ${f}`, { ...good, [f]: long }],
  ]),
  ['seqId 0', { ...good, seqId: 0 }],
  ['seqId past the wrap', { ...good, seqId: TRACKING.seqIdWrap + 1 }],
  ['a fractional seqId', { ...good, seqId: 1.5 }],
  ['seqId as text', { ...good, seqId: '1' }],
  ['a negative time', { ...good, time: -1 }],
  ['an unsafe time', { ...good, time: 2 ** 60 }],
  ['a fractional time', { ...good, time: 1.5 }],
  ['an unknown action code', { ...good, action: 99 }],
  ['action 0', { ...good, action: 0 }],
  ['an action name instead of its code', { ...good, action: 'click' }],
  ['a logmap array', { ...good, logmap: [] }],
  ['a null logmap', { ...good, logmap: null }],
  ['a missing logmap', { ...good, logmap: undefined }],
  ['a logmap of text', { ...good, logmap: '{}' }],
];

/** What the hand check says: the entry (without its cached JSON) or the field it names. */
function byHand(input: unknown): { ok: true; entry: unknown } | { ok: false; field: string } {
  try {
    const { logmapJson: _json, ...entry } = checkEntry(input);
    return { ok: true, entry };
  } catch (error) {
    if (!(error instanceof EntryProblem)) throw error;
    return { ok: false, field: error.message.split(':')[0]! };
  }
}

function bySchema(input: unknown): { ok: true; entry: unknown } | { ok: false; field: string } {
  const parsed = trackEntry.safeParse(input);
  if (parsed.success) return { ok: true, entry: { ...parsed.data } };
  return { ok: false, field: String(parsed.error.issues[0]!.path[0] ?? 'entry') };
}

describe('the tracking entry: hand check and schema', () => {
  it('covers takes and refusals', () => {
    const outcomes = cases.map(([, input]) => byHand(input).ok);
    expect(outcomes).toContain(true);
    expect(outcomes).toContain(false);
  });

  it.each(cases)('agree on %s', (_, input) => {
    const hand = byHand(input);
    const schema = bySchema(input);
    expect(schema.ok).toBe(hand.ok);
    if (hand.ok && schema.ok) expect({ ...(schema.entry as object) }).toEqual({ ...(hand.entry as object) });
    if (!hand.ok && !schema.ok) expect(schema.field).toBe(hand.field);
  });
});
