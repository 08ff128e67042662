// A code sample cut where the API origin and the key go, so a page can pre-render it and the browser fill both in.
import { sample, type SampleLanguage, type SampleSpec } from './samples';

export type SamplePart = { kind: 'text'; text: string } | { kind: 'origin' } | { kind: 'key' };

// Private-use characters: neither shell quoting nor JSON escapes them, so they come out exactly where the origin and
// key go.
const ORIGIN_MARK = '\uE000';
const KEY_MARK = '\uE001';

/**
 * The sample() text of `language` as text runs with the origin and key places between them. The browser fills in values
 * that no language quotes differently (an origin; a key is sk- and URL-safe base64, or that masked with •), so the
 * filled sample reads as sample() would write it with them.
 */
export function sampleParts(language: SampleLanguage, spec: SampleSpec): SamplePart[] {
  return sample(language, spec, ORIGIN_MARK, KEY_MARK)
    .split(/([\uE000\uE001])/)
    .filter((text) => text !== '')
    .map((text): SamplePart =>
      text === ORIGIN_MARK ? { kind: 'origin' } : text === KEY_MARK ? { kind: 'key' } : { kind: 'text', text },
    );
}
