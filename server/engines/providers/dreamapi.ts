// DreamAPI upstream adapter (placeholder until the adapter lands): registered when DREAMAPI_KEY is set.
import type { Engine } from '../types';

export interface DreamApiConfig {
  key: string;
  baseUrl: string;
}

export function dreamApiEngine(c: DreamApiConfig): Engine {
  void c;
  return { name: 'dreamapi', features: [], run: () => Promise.reject(new Error('not built yet')) };
}
