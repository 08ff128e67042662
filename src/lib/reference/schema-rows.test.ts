// Schema rows: ranges read as words and appear once, never as zod's ±9007199254740991 integer bounds.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OPERATIONS, buildOpenApiDocument } from '../api-contract';
import { schemaRows } from './schema-rows';

const rowsOf = (schema: z.ZodType) => schemaRows(z.toJSONSchema(schema) as Record<string, unknown>);

describe('schemaRows', () => {
  it('an integer without bounds states none; a bounded one reads "80 to 450"', () => {
    const rows = rowsOf(
      z.object({ credits: z.number().int(), speed: z.number().int().min(80).max(450), count: z.number().int().min(0) }),
    );
    expect(rows.find((r) => r.name === 'credits')!.rules).toEqual([]);
    expect(rows.find((r) => r.name === 'speed')!.rules).toEqual(['80 to 450']);
    expect(rows.find((r) => r.name === 'count')!.rules).toEqual(['0 or more']);
  });

  it('text lengths read "1 to 5000 characters" or "up to 64 characters"', () => {
    const rows = rowsOf(
      z.object({ text: z.string().min(1).max(5000), id: z.string().max(64), name: z.string().min(1) }),
    );
    expect(rows.map((r) => r.rules)).toEqual([
      ['1 to 5000 characters'],
      ['up to 64 characters'],
      ['at least 1 character'],
    ]);
  });

  it('a text limit the description gives ("up to 1500 characters") is not restated as "1 to 1500 characters"', () => {
    const rows = schemaRows({
      type: 'object',
      properties: {
        prompt: { type: 'string', minLength: 1, maxLength: 1500, description: 'What to draw, up to 1500 characters' },
      },
    });
    expect(rows[0]!.rules).toEqual([]);
  });

  it('a prefix rule reads "starts with", and not at all when the description shows the prefix', () => {
    const rows = rowsOf(
      z.object({
        a: z.string().startsWith('whsec_'),
        b: z.string().startsWith('whsec_').describe('A secret (whsec_…)'),
      }),
    );
    expect(rows.map((row) => row.rules)).toEqual([['starts with whsec_'], []]);
  });

  it('a range the description already gives is not repeated', () => {
    const rows = rowsOf(
      z.object({
        text: z.string().min(1).max(5000).describe('What to say, 1 to 5000 characters'),
        size: z.number().int().min(1).max(4).default(1).describe('How many, 1 to 4 (default 1)'),
      }),
    );
    expect(rows.map((r) => r.rules)).toEqual([[], []]);
  });

  /** Every field row of every operation page: the request body's and the answer's data. */
  function allRows() {
    const doc = buildOpenApiDocument({ serverUrl: '/' });
    return Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.values(item).flatMap((op) =>
        [
          ...schemaRows(Object.values(op.requestBody?.content ?? {})[0]?.schema as Record<string, unknown> | undefined),
          // A stream (text/event-stream) is described by the data of its events.
          ...schemaRows(
            (
              op.responses['200']?.content?.['application/json']?.schema as
                { properties?: { data?: Record<string, unknown> } } | undefined
            )?.properties?.data ?? op.responses['200']?.content?.['text/event-stream']?.['x-event-data'],
          ),
        ].map((row) => ({ ...row, at: `${path} ${row.name}` })),
      ),
    );
  }

  it('every field of every operation says what it is (no empty Description cell)', () => {
    const undescribed = allRows()
      .filter((row) => row.description.trim() === '')
      .map((row) => row.at);
    expect(undescribed).toEqual([]);
  });

  it('no page of the reference states a ±9007199254740991 bound or the same range twice', () => {
    const all = allRows();
    expect(all.length).toBeGreaterThan(OPERATIONS.length);
    for (const row of all) {
      expect(row.rules.join(' '), row.name).not.toMatch(/9007199254740991/);
      expect(row.rules.join(' '), row.name).not.toMatch(/≥|≤/);
      // zod's own words for a prefix rule, never shown raw.
      expect(row.rules.join(' '), row.name).not.toMatch(/starts_with|pattern \^/);
      const range = /(\d+) to (\d+)/.exec(row.rules.join(' '));
      if (range) expect(row.description, row.name).not.toContain(`${range[1]} to ${range[2]}`);
    }
  });
});
