// The speech surface of the ElevenLabs stand-in (elevenlabs.fixtures.ts): text to speech, dialogue, voice cloning
// (voices/add) and speech to text. Sources as cited in elevenlabs.fixtures.ts.
import type { ServerResponse } from 'node:http';
import { ELEVENLABS_VOICES } from './elevenlabs-constants';
import { answers, type Call, type Mode } from './elevenlabs-calls.fixtures';

/** The speech half of the fake; `tone` is the audio its speech answers carry. */
export function elevenLabsSpeechFake(state: { mode: Mode }, tone: string) {
  const premade = new Set(Object.values(ELEVENLABS_VOICES).map((v) => v.voiceId));
  const clones = new Set<string>();

  /** A speech call, answered; false when it is not one. */
  function handle(res: ServerResponse, url: URL, call: Call): boolean {
    const { send, html, file } = answers(res);
    const tts = /^\/v1\/text-to-speech\/([^/]+)$/.exec(url.pathname);
    if (call.method === 'POST' && (tts || url.pathname === '/v1/text-to-dialogue')) {
      const voices = tts
        ? [decodeURIComponent(tts[1]!)]
        : ((call.json?.inputs as Array<{ voice_id: string }> | undefined) ?? []).map((i) => i.voice_id);
      const unknown = voices.find((v) => !premade.has(v) && !clones.has(v));
      if (unknown)
        return send(400, {
          detail: { status: 'voice_not_found', message: `A voice with voice_id ${unknown} was not found.` },
        });
      if (!call.json?.model_id)
        return send(422, {
          detail: [{ loc: ['body', 'model_id'], msg: 'field required', type: 'value_error.missing' }],
        });
      // Speech answers say what they billed (character-cost; Flash bills half a character per character); dialogue's
      // here do not.
      const billed = tts
        ? {
            'character-cost': String(
              Math.ceil(String(call.json?.text ?? '').length * (call.json?.model_id === 'eleven_flash_v2_5' ? 0.5 : 1)),
            ),
          }
        : undefined;
      return state.mode === 'malformed' ? html() : file(tone, 'audio/mpeg', billed);
    }
    if (call.method === 'POST' && url.pathname === '/v1/voices/add') {
      const recording = call.form?.files;
      if (!call.form?.name || typeof recording !== 'object')
        return send(422, { detail: [{ loc: ['body', 'files'], msg: 'field required' }] });
      if (state.mode === 'malformed') return send(200, { requires_verification: false });
      const id = `clone${clones.size + 1}Voice`;
      clones.add(id);
      return send(200, { voice_id: id, requires_verification: false });
    }
    if (call.method === 'POST' && url.pathname === '/v1/speech-to-text') {
      if (state.mode === 'malformed') return html();
      if (typeof call.form?.file !== 'object' || !call.form.model_id)
        return send(422, { detail: [{ loc: ['body', 'file'], msg: 'field required' }] });
      const diarize = call.form.diarize === 'true';
      // Each word of SpeechToTextChunkResponseModel needs text, type and logprob (2.73.0
      // serialization/types/SpeechToTextWordResponseModel.js; elevenlabs/elevenlabs-docs@3557f0b1bec8
      // fern/apis/api/openapi.json components.schemas.SpeechToTextWordResponseModel.required).
      const word = (text: string, speaker: string, type = 'word') => ({
        text,
        type,
        start: 0,
        end: 0,
        logprob: 0,
        ...(diarize ? { speaker_id: speaker } : {}),
      });
      const words = [
        word('Hello', 'speaker_0'),
        word(' ', 'speaker_0', 'spacing'),
        word('there.', 'speaker_0'),
        word(' ', 'speaker_1', 'spacing'),
        word('Hi', 'speaker_1'),
        word(' ', 'speaker_1', 'spacing'),
        word('(laughs)', 'speaker_1', 'audio_event'),
      ];
      return send(200, { language_code: 'eng', language_probability: 0.98, text: 'Hello there. Hi (laughs)', words });
    }
    return false;
  }

  return { handle };
}
