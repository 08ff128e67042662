// ElevenLabs speech through the official client: text to speech (our voices or a clone), text to dialogue, instant
// voice cloning and speech to text.
import {
  ELEVENLABS_LIMITS,
  ELEVENLABS_MODELS,
  ELEVENLABS_NAMES,
  ELEVENLABS_OUTPUT_FORMAT,
  ELEVENLABS_PROGRESS,
  ELEVENLABS_VOICES,
} from './elevenlabs-constants';
import { ELEVENLABS_PRICES, SPEECH_DEFAULT_WPM, type Feature } from '../../../src/lib/product-rules';
import { probeMedia } from '../../media/probe';
import { EngineInputError, type EngineContext, type EngineResult } from '../types';
import type { ProviderCost } from '../provider-cost';
import { mediaSecondsCost, speechCost } from './elevenlabs-cost';
import { PROVIDER, type ElevenLabsClient, type ElevenLabsFile } from './elevenlabs-api';
import { filePart, languageCode, progressShare, requiredText, type Input } from './elevenlabs-inputs';

function premadeVoice(voice: unknown): string {
  const mapped = typeof voice === 'string' ? ELEVENLABS_VOICES[voice] : undefined;
  if (!mapped) throw new EngineInputError(`${PROVIDER} has no voice for ${String(voice)}`);
  return mapped.voiceId;
}

/** Our words-per-minute rate as ElevenLabs' relative speed, kept inside the range it accepts. */
function voiceSettings(speed: unknown): { voiceSettings?: { speed: number } } {
  if (typeof speed !== 'number') return {};
  const relative = speed / SPEECH_DEFAULT_WPM;
  return {
    voiceSettings: { speed: Math.min(ELEVENLABS_LIMITS.maxSpeed, Math.max(ELEVENLABS_LIMITS.minSpeed, relative)) },
  };
}

function ttsModel(feature: Feature): string {
  if (feature === 'tts-pro') return ELEVENLABS_MODELS.ttsPro;
  return feature === 'tts-clone' ? ELEVENLABS_MODELS.ttsClone : ELEVENLABS_MODELS.ttsCommon;
}

const audioOutput = (file: ElevenLabsFile): EngineResult => ({
  outputs: [{ kind: 'audio', mime: file.mime, data: file.data, durationS: file.durationS }],
});

/** tts-common / tts-pro speak {text, voice, speed?}; tts-clone speaks {cloneId, text} with the cloned voice. */
export async function speech(
  client: ElevenLabsClient,
  feature: Feature,
  i: Input,
  ctx: EngineContext,
): Promise<EngineResult> {
  const voiceId = feature === 'tts-clone' ? requiredText(i, 'cloneId', feature) : premadeVoice(i.voice);
  const request = {
    text: requiredText(i, 'text', feature),
    modelId: ttsModel(feature),
    outputFormat: ELEVENLABS_OUTPUT_FORMAT,
    ...voiceSettings(i.speed),
  };
  await ctx.progress(ELEVENLABS_PROGRESS.submitted);
  const file = await client.file((api, o) => api.textToSpeech.convert(voiceId, request, o), 'audio', {
    signal: ctx.signal,
  });
  return {
    ...audioOutput(file),
    providerCosts: [speechCost(file.billedCharacters ?? null, request.modelId, [request.text])],
  };
}

type DialogueLine = { text: string; voice_id: string };

/** Lines in requests of at most the reliable size; a longer single line still goes alone. */
export function dialogueChunks(
  lines: DialogueLine[],
  limit: number = ELEVENLABS_LIMITS.dialogueCharsPerRequest,
): DialogueLine[][] {
  const chunks: DialogueLine[][] = [];
  let size = limit;
  for (const line of lines) {
    const chars = [...line.text].length;
    if (size + chars > limit) chunks.push([]);
    size = size + chars > limit ? chars : size + chars;
    chunks.at(-1)!.push(line);
  }
  return chunks;
}

/** MP3 parts played one after the other: frames concatenate; only the first part keeps its ID3 tag. */
export function joinMp3(parts: Buffer[]): Buffer {
  const untagged = parts.map((p, n) =>
    n > 0 && p.toString('latin1', 0, 3) === 'ID3' && p.length >= 10
      ? p.subarray(10 + ((p[6]! << 21) | (p[7]! << 14) | (p[8]! << 7) | p[9]!))
      : p,
  );
  return Buffer.concat(untagged);
}

function dialogueLines(i: Input): DialogueLine[] {
  const lines = Array.isArray(i.lines) ? (i.lines as Array<{ speaker?: unknown; text?: unknown }>) : [];
  const voices = (i.voices ?? {}) as Record<string, unknown>;
  if (lines.length === 0) throw new EngineInputError(`${PROVIDER} needs at least one dialogue line`);
  return lines.map((l) => ({
    text: requiredText(l as Input, 'text', 'dialogue'),
    voice_id: premadeVoice(voices[String(l.speaker)]),
  }));
}

/** Text to dialogue (Eleven v3): one voice per speaker; long scripts in several requests, joined. */
export async function dialogue(client: ElevenLabsClient, i: Input, ctx: EngineContext): Promise<EngineResult> {
  const chunks = dialogueChunks(dialogueLines(i));
  const parts: Buffer[] = [];
  const providerCosts: ProviderCost[] = [];
  for (const [n, inputs] of chunks.entries()) {
    const request = {
      inputs: inputs.map((l) => ({ text: l.text, voiceId: l.voice_id })),
      modelId: ELEVENLABS_MODELS.dialogue,
      outputFormat: ELEVENLABS_OUTPUT_FORMAT,
    };
    const file = await client.file((api, o) => api.textToDialogue.convert(request, o), 'audio', { signal: ctx.signal });
    parts.push(file.data);
    // Each request is billed on its own.
    providerCosts.push(
      speechCost(
        file.billedCharacters ?? null,
        ELEVENLABS_MODELS.dialogue,
        inputs.map((line) => line.text),
      ),
    );
    await ctx.progress(progressShare((n + 1) / chunks.length));
  }
  const data = joinMp3(parts);
  return {
    outputs: [
      {
        kind: 'audio',
        mime: 'audio/mpeg',
        data,
        durationS: (await probeMedia(data, { signal: ctx.signal }))?.durationS ?? null,
      },
    ],
    providerCosts,
  };
}

/**
 * Instant voice cloning (voices.ivc.create): the recording as multipart `files`; the new voice id is the task's cloneId
 * (no media).
 */
export async function voiceClone(client: ElevenLabsClient, i: Input, ctx: EngineContext): Promise<EngineResult> {
  const recording = await ctx.readInput(requiredText(i, 'voiceUrl', 'voice-clone'), ['audio']);
  const request = { name: ELEVENLABS_NAMES.clone(ctx.taskId), files: [filePart(recording, 'voice')] };
  await ctx.progress(ELEVENLABS_PROGRESS.submitted);
  const added = await client.upload((api, o) => api.voices.ivc.create(request, o), ctx.signal, {
    field: 'voiceId',
    lacks: 'no voice_id for the new voice',
  });
  return { outputs: [], cloneId: added.voiceId };
}

interface SttWord {
  text?: unknown;
  type?: unknown;
  speaker_id?: unknown;
}

/** The diarized transcript: one line per speaker turn, speakers numbered in the order they first speak. */
export function speakerTurns(words: SttWord[]): string | null {
  const numbers = new Map<string, number>();
  const turns: Array<{ speaker: number; text: string }> = [];
  for (const w of words) {
    if (typeof w.text !== 'string') continue;
    const id = typeof w.speaker_id === 'string' ? w.speaker_id : null;
    if (id === null || w.type === 'spacing') {
      if (turns.length > 0) turns.at(-1)!.text += w.text;
      continue;
    }
    if (!numbers.has(id)) numbers.set(id, numbers.size + 1);
    const speaker = numbers.get(id)!;
    if (turns.at(-1)?.speaker !== speaker) turns.push({ speaker, text: '' });
    turns.at(-1)!.text += w.text;
  }
  if (numbers.size === 0) return null;
  return turns.map((t) => `${ELEVENLABS_NAMES.speaker(t.speaker)}: ${t.text.trim()}`).join('\n');
}

/**
 * Speech to text (Scribe): Common gives the plain transcript; Pro asks for diarization and sound tags and names the
 * speakers.
 */
export async function transcribe(
  client: ElevenLabsClient,
  feature: Feature,
  i: Input,
  ctx: EngineContext,
): Promise<EngineResult> {
  const pro = feature === 'stt-pro';
  const audio = await ctx.readInput(requiredText(i, 'audioUrl', feature), ['audio']);
  const request = {
    modelId: pro ? ELEVENLABS_MODELS.sttPro : ELEVENLABS_MODELS.sttCommon,
    file: filePart(audio, 'audio'),
    ...(typeof i.lan === 'string' && i.lan.trim() ? { languageCode: languageCode(i.lan) } : {}),
    tagAudioEvents: pro,
    ...(pro ? { diarize: true } : {}),
  };
  await ctx.progress(ELEVENLABS_PROGRESS.submitted);
  // An empty text is a transcript too: audio with no speech in it.
  const answer: { text: string; words?: unknown } = await client.upload(
    (api, o) => api.speechToText.convert(request, o),
    ctx.signal,
    { field: 'text', lacks: 'the transcript has no text', emptyOk: true },
  );
  // The client's words are camelCase (SpeechToTextWordResponseModel.speakerId); speakerTurns reads the wire names.
  const words = Array.isArray(answer.words)
    ? (answer.words as Array<{ text?: unknown; type?: unknown; speakerId?: unknown }>).map((w) => ({
        text: w.text,
        type: w.type,
        speaker_id: w.speakerId,
      }))
    : null;
  const text = (pro && words ? speakerTurns(words) : null) ?? answer.text.trim();
  // The task service settles the charge on the length of the audio read here; ElevenLabs bills it by the hour of audio.
  return { outputs: [], text, providerCosts: [mediaSecondsCost(audio.durationS, ELEVENLABS_PRICES.sttUsdPerSecond)] };
}
