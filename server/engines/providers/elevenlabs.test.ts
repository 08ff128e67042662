// ElevenLabs mapping rules: voices, dialogue parts, how error answers read and are retried, and speaker turns, without
// the network.
import { describe, expect, it } from 'vitest';
import { ELEVENLABS_VOICES } from './elevenlabs-constants';
import { PROVIDER_UNAVAILABLE, VOICES } from '../../../src/lib/product-rules';
import { elevenLabsRefusal, retriedByElevenLabs } from './elevenlabs-errors';
import { dialogueChunks, speakerTurns } from './elevenlabs-speech';
import { EngineInputError, EngineUnavailableError } from '../types';

describe('ElevenLabs mapping rules', () => {
  it('every voice we offer is spoken by an ElevenLabs voice', () => {
    for (const v of VOICES) expect(ELEVENLABS_VOICES[v.id]?.voiceId, v.id).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it('dialogue requests stay within the reliable 2,000 characters; a longer line goes alone', () => {
    const line = (n: number) => ({ text: 'x'.repeat(n), voice_id: 'v' });
    expect(dialogueChunks([line(900), line(900), line(900)]).map((c) => c.length)).toEqual([2, 1]);
    expect(dialogueChunks([line(2500), line(10)]).map((c) => c.length)).toEqual([1, 1]);
  });

  const refusal = (status: number, body: unknown) =>
    elevenLabsRefusal(status, typeof body === 'string' ? body : JSON.stringify(body));
  /** Words a customer must not read: what only an operator can act on. */
  const OPERATOR_WORDS = /key|config|quota|billing|remaining|ELEVENLABS_|401|429/i;

  it("a 422 validation error is the input's fault and names the field, as the caller sent it when we know it", () => {
    const one = refusal(422, {
      detail: [{ loc: ['body', 'target_lang'], msg: 'Unsupported target language: xx', type: 'value_error' }],
    });
    expect(one).toBeInstanceOf(EngineInputError);
    expect(one!.message).toBe('ElevenLabs refused the input: targetLanguage: Unsupported target language: xx');
    expect((one as EngineInputError).field).toBe('targetLanguage');
    const nested = refusal(422, {
      detail: [
        { loc: ['body', 'inputs', 0, 'text'], msg: 'field required' },
        { loc: ['body', 'model_id'], msg: 'field required' },
      ],
    });
    expect(nested!.message).toBe(
      'ElevenLabs refused the input: lines.0.text: field required; model_id: field required',
    );
  });

  it("a 400 with ElevenLabs' own detail is the input's fault, in its own words", () => {
    const error = refusal(400, {
      detail: { status: 'voice_not_found', message: 'A voice with voice_id x was not found.' },
    });
    expect(error).toBeInstanceOf(EngineInputError);
    expect(error!.message).toBe('ElevenLabs refused the input: A voice with voice_id x was not found.');
  });

  it('a spent quota, a refused key or a plan without the feature make the engine unavailable for a while: a plain message for people, the detail for the operator', () => {
    const cases: Array<[number, unknown, string]> = [
      [
        401,
        { detail: { status: 'quota_exceeded', message: 'You have 12 credits remaining.' } },
        'ElevenLabs answered 401 quota_exceeded: You have 12 credits remaining.',
      ],
      [
        400,
        { detail: { status: 'quota_exceeded', message: 'Over quota.' } },
        'ElevenLabs answered 400 quota_exceeded: Over quota.',
      ],
      [
        401,
        { detail: { status: 'invalid_api_key', message: 'Invalid API key' } },
        'ElevenLabs answered 401 invalid_api_key: Invalid API key',
      ],
      [
        403,
        { detail: { status: 'only_for_creator+', message: 'Upgrade.' } },
        'ElevenLabs answered 403 only_for_creator+: Upgrade.',
      ],
    ];
    for (const [status, body, detail] of cases) {
      const error = refusal(status, body) as EngineUnavailableError;
      expect(error, detail).toBeInstanceOf(EngineUnavailableError);
      expect(error.message).toBe(PROVIDER_UNAVAILABLE.message('ElevenLabs'));
      expect(error.message).not.toMatch(OPERATOR_WORDS);
      expect(error.detail).toBe(detail);
      expect(error.forMs).toBe(PROVIDER_UNAVAILABLE.accountMs);
    }
  });

  it('ElevenLabs still busy after every retry makes the engine unavailable for a shorter while', () => {
    for (const [status, body] of [
      [429, { detail: { status: 'system_busy', message: 'Heavy traffic.' } }],
      [503, 'Service Unavailable'],
    ] as const) {
      const error = refusal(status, body) as EngineUnavailableError;
      expect(error).toBeInstanceOf(EngineUnavailableError);
      expect(error.message).not.toMatch(OPERATOR_WORDS);
      expect(error.forMs).toBe(PROVIDER_UNAVAILABLE.capacityMs);
    }
  });

  it('other answers keep the generic provider errors', () => {
    expect(refusal(404, { detail: { status: 'dubbing_not_found', message: 'Dubbing not found' } })).toBeUndefined();
    expect(refusal(500, 'oops')).toBeUndefined();
  });

  it("only what ElevenLabs' own client retries is retried: 408, 429 and 5xx", () => {
    expect([408, 429, 500, 502, 503, 504].filter(retriedByElevenLabs)).toEqual([408, 429, 500, 502, 503, 504]);
    expect([400, 401, 402, 403, 404, 409, 422].filter(retriedByElevenLabs)).toEqual([]);
  });

  it('a diarized transcript names speakers in the order they first speak', () => {
    const w = (text: string, speaker_id: string, type = 'word') => ({ text, speaker_id, type });
    expect(
      speakerTurns([
        w('Hi.', 'speaker_3'),
        w(' ', 'speaker_3', 'spacing'),
        w('Yes', 'speaker_0'),
        w(' ', 'speaker_0', 'spacing'),
        w('ok', 'speaker_3'),
      ]),
    ).toBe('Speaker 1: Hi.\nSpeaker 2: Yes\nSpeaker 1: ok');
    expect(speakerTurns([{ text: 'plain', type: 'word' }])).toBeNull();
  });
});
