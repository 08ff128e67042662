// ElevenLabs adapter: TTS, voice clone, dialogue, video translation by dubbing (lip sync chained to another engine) and
// speech to text.
import type { Feature } from '../../../src/lib/product-rules';
import { createLogger, type Logger } from '../../log';
import type { Engine, EngineContext, EngineResult, LipSync } from '../types';
import { EngineInputError } from '../types';
import { elevenLabsClient, PROVIDER, type ElevenLabsClient } from './elevenlabs-api';
import { cancelDubbingJob, translateVideo } from './elevenlabs-dubbing';
import { dialogue, speech, transcribe, voiceClone } from './elevenlabs-speech';

export interface ElevenLabsConfig {
  key: string;
  baseUrl: string;
  /** Lip sync for video translation with enableLipSync (another engine's lip-sync model); null: dubbing only. */
  lipSync: LipSync | null;
  /** Where what only operators should read goes (ElevenLabs' quota or key trouble, a dub that could not be deleted). */
  log?: Pick<Logger, 'warn'>;
}

const SPEECH_FEATURES = [
  'tts-common',
  'tts-pro',
  'tts-clone',
  'voice-clone',
  'dialogue',
  'stt-common',
  'stt-pro',
  'video-translate-voice-only',
] as const satisfies readonly Feature[];

function route(
  client: ElevenLabsClient,
  lipSync: LipSync | null,
  log: Pick<Logger, 'warn'>,
  feature: Feature,
  i: Record<string, unknown>,
  ctx: EngineContext,
): Promise<EngineResult> {
  switch (feature) {
    case 'tts-common':
    case 'tts-pro':
    case 'tts-clone':
      return speech(client, feature, i, ctx);
    case 'dialogue':
      return dialogue(client, i, ctx);
    case 'voice-clone':
      return voiceClone(client, i, ctx);
    case 'stt-common':
    case 'stt-pro':
      return transcribe(client, feature, i, ctx);
    case 'video-translate-voice-only':
    case 'video-translate-lip-sync':
      return translateVideo(client, lipSync, feature, i, ctx, log);
    default:
      throw new EngineInputError(`${PROVIDER} does not serve ${feature} here`);
  }
}

export function elevenLabsEngine(c: ElevenLabsConfig): Engine {
  // Without the app's logger, operator lines still reach stderr, at warn level.
  const log = c.log ?? createLogger('warn');
  const client = elevenLabsClient(c.key, c.baseUrl, log);
  return {
    name: 'elevenlabs',
    // Without a lip-sync model, lip-synced translation is not offered, so configuring it fails at start.
    features: c.lipSync ? [...SPEECH_FEATURES, 'video-translate-lip-sync'] : SPEECH_FEATURES,
    // TTS passes speed as voice_settings.speed (elevenlabs-speech.ts); dialogue and clones take none.
    options: { 'tts-common': ['speed'], 'tts-pro': ['speed'] },
    run: async (feature, input, ctx) =>
      route(client, c.lipSync, log, feature, (input ?? {}) as Record<string, unknown>, ctx),
    // After quota, billing, key or capacity trouble, the features go to their next engine (or answer 503) for a while.
    unavailable: () => client.outage(),
    // A dub (or the lip-sync job after it) of a task that ended without its result, from the stored reference.
    cancelJob: (name, ref) => cancelDubbingJob(client, c.lipSync, name, ref, log),
  };
}
