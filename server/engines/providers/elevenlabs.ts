// ElevenLabs adapter (placeholder until the adapter lands): registered when ELEVENLABS_API_KEY is set.
import type { Engine, LipSync } from '../types';

export interface ElevenLabsConfig {
  key: string;
  baseUrl: string;
  /** Lip sync for video translation with enableLipSync (another engine's lip-sync model); null: dubbing only. */
  lipSync: LipSync | null;
}

export function elevenLabsEngine(c: ElevenLabsConfig): Engine {
  void c;
  return { name: 'elevenlabs', features: [], run: () => Promise.reject(new Error('not built yet')) };
}
