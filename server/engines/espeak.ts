// Offline speech engine: eSpeak-NG compiled to WASM (npm espeak-ng), for TTS and dialogue; no key, no system package.
import { RUN_OPTIONS, SPEECH_DEFAULT_WPM, voiceById, type Feature, type RunOption } from '../../src/lib/product-rules';
import { speechPool, type SpeechPool } from './espeak-pool';
import { EngineInputError, type Engine, type EngineContext, type EngineResult } from './types';
import { joinWithPauses, readWav, wavSeconds, writeWav } from './wav';

/** What a speech task hands this engine: its stored input (validated by the route that took the task). */
interface SpeechInput {
  text: string;
  /** A voice id of the spec's VOICES. */
  voice: string;
  /** Words per minute; SPEECH_DEFAULT_WPM when absent. */
  speed?: number | undefined;
  /** eSpeak pitch 0–99; RUN_OPTIONS.pitch.default (the voice's own) when absent. */
  pitch?: number | undefined;
}

/** What a dialogue task hands this engine: its lines in order, each speaker's voice id, one speed for all. */
interface DialogueInput {
  lines: Array<{ speaker: string; text: string }>;
  voices: Record<string, string>;
  speed?: number | undefined;
  pitch?: number | undefined;
}

/** Pauses between dialogue lines: a longer one when the speaker changes, as people take turns. */
const PAUSE_SAME_SPEAKER_MS = 300;
const PAUSE_NEW_SPEAKER_MS = 550;

/** The process's synthesis threads, started on the first synthesis. */
let pool: SpeechPool | null = null;

/**
 * Synthesizes one text with one eSpeak voice into WAV bytes on the pool's threads (./espeak-pool.ts): a long text
 * takes seconds of CPU, which on the main thread would stall every other request. Each synthesis runs on a fresh
 * WASM instance, so calls stay independent, and an aborted task stops its synthesis by ending that thread.
 */
export function synthesize(
  text: string,
  espeakVoice: string,
  speedWpm = SPEECH_DEFAULT_WPM,
  signal?: AbortSignal,
  pitch: number = RUN_OPTIONS.pitch.default,
): Promise<Buffer> {
  pool ??= speechPool();
  return pool.synthesize({ text, voice: espeakVoice, wpm: speedWpm, pitch }, signal);
}

function voiceOf(id: string) {
  const voice = voiceById(id);
  if (!voice) throw new EngineInputError(`unknown voice ${id}`);
  return voice;
}

async function speech(input: SpeechInput, ctx: EngineContext): Promise<EngineResult> {
  await ctx.progress(10);
  const wav = await synthesize(input.text, voiceOf(input.voice).espeak, input.speed, ctx.signal, input.pitch);
  return { outputs: [{ kind: 'audio', mime: 'audio/wav', data: wav, durationS: wavSeconds(wav) }] };
}

async function dialogue(input: DialogueInput, ctx: EngineContext): Promise<EngineResult> {
  const clips = [];
  for (const [i, line] of input.lines.entries()) {
    if (ctx.signal.aborted) throw new Error('aborted');
    const voice = voiceOf(input.voices[line.speaker] ?? '');
    const pcm = readWav(await synthesize(line.text, voice.espeak, input.speed, ctx.signal, input.pitch));
    const sameSpeaker = i > 0 && input.lines[i - 1]!.speaker === line.speaker;
    clips.push({ pcm, pauseBeforeMs: sameSpeaker ? PAUSE_SAME_SPEAKER_MS : PAUSE_NEW_SPEAKER_MS });
    await ctx.progress(Math.round(((i + 1) / input.lines.length) * 90));
  }
  const wav = writeWav(joinWithPauses(clips));
  return { outputs: [{ kind: 'audio', mime: 'audio/wav', data: wav, durationS: wavSeconds(wav) }] };
}

/** eSpeak NG takes a rate (-s) and a pitch (-p) for every voice. */
const SPEECH_OPTIONS: readonly RunOption[] = ['speed', 'pitch'];

export function espeakEngine(): Engine {
  return {
    name: 'espeak',
    features: ['tts-common', 'tts-pro', 'dialogue'],
    options: { 'tts-common': SPEECH_OPTIONS, 'tts-pro': SPEECH_OPTIONS, dialogue: SPEECH_OPTIONS },
    run(feature: Feature, input: unknown, ctx: EngineContext) {
      if (feature === 'dialogue') return dialogue(input as DialogueInput, ctx);
      return speech(input as SpeechInput, ctx);
    },
  };
}
