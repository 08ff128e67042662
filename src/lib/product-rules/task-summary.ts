// What a task was made from in a few words: its prompt, text or script, and the voice or model; for history items and
// shared results.
import { SAMPLE_MODELS } from './samples';
import { voiceById } from './voices';

export interface InputSummary {
  /** The prompt, text or dialogue script; null when the task had none (uploads only). */
  text: string | null;
  /** Voice, cloned voice, sample model or target language, as people name them; null when none applies. */
  detail: string | null;
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

function voiceName(id: unknown): string | null {
  const voice = typeof id === 'string' ? voiceById(id) : undefined;
  return voice ? `${voice.name} (${voice.language})` : str(id);
}

/**
 * Reads the stored input of any feature (playground or public API field names); unknown shapes give nulls, never throw.
 */
export function inputSummary(input: unknown): InputSummary {
  if (!input || typeof input !== 'object') return { text: null, detail: null };
  const i = input as Record<string, unknown>;
  let text = str(i.text) ?? str(i.prompt);
  let detail: string | null = null;
  if (Array.isArray(i.lines)) {
    const lines = i.lines.filter(
      (l): l is { speaker: string; text: string } =>
        !!l && typeof l === 'object' && typeof (l as { text?: unknown }).text === 'string',
    );
    text = lines.map((l) => `${l.speaker}: ${l.text}`).join(' / ') || null;
    const voices = i.voices && typeof i.voices === 'object' ? Object.entries(i.voices as Record<string, unknown>) : [];
    detail = voices.map(([speaker, id]) => `${speaker}: ${voiceName(id) ?? '?'}`).join(', ') || null;
  } else if (i.voice !== undefined || i.audioId !== undefined) {
    detail = voiceName(i.voice ?? i.audioId);
  } else if (i.cloneId !== undefined) {
    detail = 'Cloned voice';
  } else if (i.modelId !== undefined) {
    detail = SAMPLE_MODELS.find((m) => m.id === i.modelId)?.name ?? null;
  } else if (str(i.targetLanguage)) {
    detail = `Into ${str(i.targetLanguage)}`;
  }
  return { text, detail };
}
