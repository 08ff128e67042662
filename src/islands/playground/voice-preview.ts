// Plays the short free sample of a voice (GET /voice-preview/:id); one sample at a time across the page.
import { apiBase } from '../../lib/api';

let current: HTMLAudioElement | null = null;

export function previewUrl(voiceId: string): string {
  return `${apiBase()}/voice-preview/${encodeURIComponent(voiceId)}`;
}

/** Starts the sample, stopping any other; resolves false when the browser could not play it. */
export async function playPreview(voiceId: string): Promise<boolean> {
  current?.pause();
  current = new Audio(previewUrl(voiceId));
  try {
    await current.play();
    return true;
  } catch {
    return false;
  }
}
