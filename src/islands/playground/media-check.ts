// Checks a chosen file with the server's upload rules (UPLOAD_LIMITS: type, size, duration) before it is sent.
import { UPLOAD_LIMITS, type MediaKind } from '../../lib/product-rules';

/** Names browsers give the accepted types, mapped to the canonical MIME the server sniffs. */
const ALIASES: Record<string, string> = {
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/mp3': 'audio/mpeg',
  'audio/x-m4a': 'audio/mp4',
  'audio/m4a': 'audio/mp4',
  'audio/x-aac': 'audio/aac',
  'audio/x-flac': 'audio/flac',
  'audio/opus': 'audio/ogg',
  'image/jpg': 'image/jpeg',
};

/** How people call the accepted types, where the MIME subtype says it badly. */
const NAMES: Record<string, string> = {
  'video/quicktime': 'MOV',
  'audio/mpeg': 'MP3',
  'audio/mp4': 'M4A',
  'audio/ogg': 'OGG/Opus',
};

const MB = 1024 * 1024;

/** The `accept` attribute of a file input for these kinds. */
export function acceptOf(kinds: readonly MediaKind[]): string {
  return kinds.flatMap((k) => UPLOAD_LIMITS[k].mimes).join(',');
}

/** A short human list, e.g. "WAV or MP3, up to 20 MB and 300 s". */
export function describeLimits(kind: MediaKind): string {
  const l = UPLOAD_LIMITS[kind];
  const types = l.mimes.map((m) => NAMES[m] ?? m.split('/')[1]!.toUpperCase()).join(', ');
  return `${types}; up to ${l.maxBytes / MB} MB${l.maxDurationS ? ` and ${l.maxDurationS} s` : ''}`;
}

/** The kind a file is, or an error a person can act on. Duration is checked separately (it needs the media). */
export function checkFile(
  file: { type: string; size: number },
  kinds: readonly MediaKind[],
): { kind: MediaKind } | { error: string } {
  const mime = ALIASES[file.type] ?? file.type;
  const kind = kinds.find((k) => UPLOAD_LIMITS[k].mimes.includes(mime));
  if (!kind) return { error: `This file type is not accepted here. Choose ${kinds.map(describeLimits).join(' or ')}.` };
  if (file.size === 0) return { error: 'This file is empty. Choose another file.' };
  const { maxBytes } = UPLOAD_LIMITS[kind];
  if (file.size > maxBytes)
    return {
      error: `This ${kind} is ${(file.size / MB).toFixed(1)} MB; the limit is ${maxBytes / MB} MB. Choose a smaller file.`,
    };
  return { kind };
}

export function checkDuration(kind: MediaKind, seconds: number | null): string | null {
  const max = UPLOAD_LIMITS[kind].maxDurationS;
  if (max === null || seconds === null || !Number.isFinite(seconds) || seconds <= max) return null;
  return `This ${kind} is ${Math.ceil(seconds)} s long; the limit is ${max} s. Trim it and try again.`;
}

/** Reads the length of an audio or video file from its metadata; null when the browser cannot tell. */
export function mediaDuration(file: Blob, kind: MediaKind): Promise<number | null> {
  if (kind === 'image') return Promise.resolve(null);
  return new Promise((resolve) => {
    const el = document.createElement(kind === 'audio' ? 'audio' : 'video');
    const url = URL.createObjectURL(file);
    const done = (value: number | null) => {
      URL.revokeObjectURL(url);
      resolve(value);
    };
    el.preload = 'metadata';
    el.onloadedmetadata = () => done(Number.isFinite(el.duration) ? el.duration : null);
    // The server still checks the length; a file the browser cannot parse is left to it.
    el.onerror = () => done(null);
    el.src = url;
  });
}
