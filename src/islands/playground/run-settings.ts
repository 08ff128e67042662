// A screen's advanced settings: what the draft keeps, and what a submit sends (only those the serving engine honours).
import type { RunOption, RunSettings } from '../../lib/product-rules';

export type { RunSettings };

/** The settings to send: set, and honoured by the engine serving the feature (a stale draft may hold others). */
export function settingsFor(options: readonly RunOption[], settings: RunSettings): RunSettings {
  const out: Record<string, unknown> = {};
  for (const option of options) {
    const value = settings[option];
    if (value !== undefined && value !== '')
      out[option] = typeof value === 'string' ? value.trim() || undefined : value;
  }
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as RunSettings;
}
