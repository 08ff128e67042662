// ElevenLabs mapping rules: voices, dialogue parts, error wording and speaker turns, without the network.
import { describe, expect, it } from 'vitest';
import { ELEVENLABS_VOICES } from './elevenlabs-constants';
import { VOICES } from '../../../src/lib/spec';
import { readableError } from './elevenlabs-api';
import { dialogueChunks, speakerTurns } from './elevenlabs-speech';
import { ProviderError } from './http';
import { EngineInputError } from '../types';

describe('ElevenLabs mapping rules', () => {
  it('every voice we offer is spoken by an ElevenLabs voice', () => {
    for (const v of VOICES) expect(ELEVENLABS_VOICES[v.id]?.voiceId, v.id).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it('dialogue requests stay within the reliable 2,000 characters; a longer line goes alone', () => {
    const line = (n: number) => ({ text: 'x'.repeat(n), voice_id: 'v' });
    expect(dialogueChunks([line(900), line(900), line(900)]).map((c) => c.length)).toEqual([2, 1]);
    expect(dialogueChunks([line(2500), line(10)]).map((c) => c.length)).toEqual([1, 1]);
  });

  it("errors quote ElevenLabs' own words: detail messages, validation lists, even a detail cut short", () => {
    const said = (e: Error) => (readableError(e) as Error).message;
    expect(said(new EngineInputError('ElevenLabs refused the input: [{"loc":["body","text"],"msg":"field required","type":"value_error.missing"}]'))).toBe('ElevenLabs refused the input: field required');
    expect(said(new EngineInputError('ElevenLabs refused the input: {"detail":{"status":"max_character_limit_exceeded","message":"Text is too long."},"x":"cut her'))).toBe('ElevenLabs refused the input: Text is too long.');
    expect(said(new ProviderError('ElevenLabs failed'))).toBe('ElevenLabs failed');
  });

  it('a spent quota is the account\'s problem, not the input\'s: another engine may still serve the task', () => {
    const error = readableError(new EngineInputError('ElevenLabs refused the input: {"status":"quota_exceeded","message":"You have 3 credits remaining."}'));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toBe('ElevenLabs has no quota left for this request: You have 3 credits remaining.');
  });

  it('a diarized transcript names speakers in the order they first speak', () => {
    const w = (text: string, speaker_id: string, type = 'word') => ({ text, speaker_id, type });
    expect(speakerTurns([w('Hi.', 'speaker_3'), w(' ', 'speaker_3', 'spacing'), w('Yes', 'speaker_0'), w(' ', 'speaker_0', 'spacing'), w('ok', 'speaker_3')])).toBe('Speaker 1: Hi.\nSpeaker 2: Yes\nSpeaker 1: ok');
    expect(speakerTurns([{ text: 'plain', type: 'word' }])).toBeNull();
  });
});
