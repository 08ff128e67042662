// Offline speech engine: eSpeak-NG compiled to WASM (npm espeak-ng), for TTS and dialogue; no key, no system package.
import { SPEECH_DEFAULT_WPM, voiceById, type Feature } from '../../src/lib/spec/tasks';
import type { DialogueInput, SpeechInput } from '../tasks/inputs';
import { EngineInputError, type Engine, type EngineContext, type EngineResult } from './types';
import { joinWithPauses, readWav, wavSeconds, writeWav } from './wav';

/** eSpeak-NG's default speaking rate in words per minute. */

/** Pauses between dialogue lines: a longer one when the speaker changes, as people take turns. */
const PAUSE_SAME_SPEAKER_MS = 300;
const PAUSE_NEW_SPEAKER_MS = 550;

/**
 * Synthesizes one text with one eSpeak voice into WAV bytes. A fresh WASM instance per call keeps calls
 * independent (the module's file system and state are per instance); the text goes in through a file so no
 * character of it can be read as a command-line option.
 */
export async function synthesize(text: string, espeakVoice: string, speedWpm = SPEECH_DEFAULT_WPM): Promise<Buffer> {
  const factory = (await import('espeak-ng')).default;
  const errors: string[] = [];
  const module = await factory({
    arguments: ['-b', '1', '-v', espeakVoice, '-s', String(speedWpm), '-w', '/out.wav', '-f', '/in.txt'],
    preRun: [(m) => m.FS.writeFile('/in.txt', text)],
    print: () => {},
    printErr: (line) => {
      if (!line.includes('keepRuntimeAlive')) errors.push(line);
    },
  });
  if (!module.FS.analyzePath('/out.wav').exists) throw new Error(`espeak-ng produced no audio: ${errors.join('; ') || 'unknown error'}`);
  return Buffer.from(module.FS.readFile('/out.wav'));
}

function voiceOf(id: string) {
  const voice = voiceById(id);
  if (!voice) throw new EngineInputError(`unknown voice ${id}`);
  return voice;
}

async function speech(input: SpeechInput, ctx: EngineContext): Promise<EngineResult> {
  await ctx.progress(10);
  const wav = await synthesize(input.text, voiceOf(input.voice).espeak, input.speed);
  return { outputs: [{ kind: 'audio', mime: 'audio/wav', data: wav, durationS: wavSeconds(wav) }] };
}

async function dialogue(input: DialogueInput, ctx: EngineContext): Promise<EngineResult> {
  const clips = [];
  for (const [i, line] of input.lines.entries()) {
    if (ctx.signal.aborted) throw new Error('aborted');
    const voice = voiceOf(input.voices[line.speaker] ?? '');
    const pcm = readWav(await synthesize(line.text, voice.espeak, input.speed));
    const sameSpeaker = i > 0 && input.lines[i - 1]!.speaker === line.speaker;
    clips.push({ pcm, pauseBeforeMs: sameSpeaker ? PAUSE_SAME_SPEAKER_MS : PAUSE_NEW_SPEAKER_MS });
    await ctx.progress(Math.round(((i + 1) / input.lines.length) * 90));
  }
  const wav = writeWav(joinWithPauses(clips));
  return { outputs: [{ kind: 'audio', mime: 'audio/wav', data: wav, durationS: wavSeconds(wav) }] };
}

export function espeakEngine(): Engine {
  return {
    name: 'espeak',
    features: ['tts-common', 'tts-pro', 'dialogue'],
    run(feature: Feature, input: unknown, ctx: EngineContext) {
      if (feature === 'dialogue') return dialogue(input as DialogueInput, ctx);
      return speech(input as SpeechInput, ctx);
    },
  };
}
