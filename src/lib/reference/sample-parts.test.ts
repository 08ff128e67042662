// The pre-rendered samples come from sample() itself: cut at the origin and key places, every operation's sample in
// every language reads exactly as sample() writes it with a real origin and key.
import { describe, expect, it } from 'vitest';
import { operations } from '../../components/reference/model';
import { sampleParts, type SamplePart } from './sample-parts';
import { SAMPLE_LANGUAGES, sample } from './samples';

const join = (parts: SamplePart[], origin: string, key: string) =>
  parts.map((p) => (p.kind === 'text' ? p.text : p.kind === 'origin' ? origin : key)).join('');

describe('sampleParts', () => {
  it('joined with an origin and a key, equals sample() for every operation and language', () => {
    expect(operations.length).toBeGreaterThan(20);
    for (const op of operations) {
      for (const { id } of SAMPLE_LANGUAGES) {
        const parts = sampleParts(id, op.sample);
        // A key as the server makes them (sk- and URL-safe base64) and as the page shows it masked.
        for (const key of ['sk-AbC_d-19xYz', 'sk-AbC_d••••••••••••9xYz']) {
          expect(join(parts, 'http://localhost:8797', key)).toBe(sample(id, op.sample, 'http://localhost:8797', key));
        }
        // The marks never leak into the text.
        expect(parts.some((p) => p.kind === 'text' && /[\uE000\uE001]/.test(p.text))).toBe(false);
      }
    }
  });

  it('has one origin place, and one key place exactly when the call is made with a key', () => {
    for (const op of operations) {
      for (const { id } of SAMPLE_LANGUAGES) {
        const kinds = sampleParts(id, op.sample).map((p) => p.kind);
        expect(
          kinds.filter((k) => k === 'origin'),
          `${op.id} ${id}`,
        ).toHaveLength(1);
        expect(
          kinds.filter((k) => k === 'key'),
          `${op.id} ${id}`,
        ).toHaveLength(op.sample.auth === 'bearer' ? 1 : 0);
      }
    }
  });
});
