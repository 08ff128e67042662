// The voices of speech tasks (TTS and dialogue) and the speaking rate their `speed` is measured on.

/** Normal speaking rate in words per minute (eSpeak NG's default); the `speed` of speech tasks is on this scale. */
export const SPEECH_DEFAULT_WPM = 175;

/** A voice of the offline speech engine: id shown to users, its language and the eSpeak-NG voice behind it. */
export interface Voice {
  id: string;
  name: string;
  language: string;
  gender: 'female' | 'male';
  espeak: string;
}

/** Voices offered for TTS and dialogue; DreamAPI's audioId and lan map onto these. */
export const VOICES: readonly Voice[] = [
  { id: 'en-us-female-1', name: 'Ava', language: 'en-US', gender: 'female', espeak: 'en-us+f3' },
  { id: 'en-us-male-1', name: 'Noah', language: 'en-US', gender: 'male', espeak: 'en-us+m3' },
  { id: 'en-gb-female-1', name: 'Olivia', language: 'en-GB', gender: 'female', espeak: 'en-gb+f2' },
  { id: 'en-gb-male-1', name: 'Oliver', language: 'en-GB', gender: 'male', espeak: 'en-gb+m1' },
  { id: 'es-female-1', name: 'Lucía', language: 'es', gender: 'female', espeak: 'es+f3' },
  { id: 'es-male-1', name: 'Mateo', language: 'es', gender: 'male', espeak: 'es+m3' },
  { id: 'fr-female-1', name: 'Chloé', language: 'fr', gender: 'female', espeak: 'fr+f3' },
  { id: 'fr-male-1', name: 'Louis', language: 'fr', gender: 'male', espeak: 'fr+m3' },
  { id: 'de-female-1', name: 'Mia', language: 'de', gender: 'female', espeak: 'de+f3' },
  { id: 'de-male-1', name: 'Felix', language: 'de', gender: 'male', espeak: 'de+m3' },
  { id: 'it-female-1', name: 'Giulia', language: 'it', gender: 'female', espeak: 'it+f3' },
  { id: 'pt-male-1', name: 'Tiago', language: 'pt', gender: 'male', espeak: 'pt+m3' },
  { id: 'zh-female-1', name: 'Mei', language: 'zh', gender: 'female', espeak: 'cmn+f3' },
  { id: 'ja-female-1', name: 'Yui', language: 'ja', gender: 'female', espeak: 'ja+f3' },
];

export function voiceById(id: string): Voice | undefined {
  return VOICES.find((v) => v.id === id);
}

/** The default voice of a language (DreamAPI `lan` without `audioId`), matching 'en' to 'en-US'. */
export function voiceForLanguage(lan: string): Voice | undefined {
  const want = lan.toLowerCase();
  return (
    VOICES.find((v) => v.language.toLowerCase() === want) ??
    VOICES.find((v) => primaryLanguage(v.language) === primaryLanguage(want))
  );
}

/** The primary subtag of a language tag, lower-cased: 'en-US' and 'en_us' → 'en'. */
export function primaryLanguage(tag: string): string {
  return tag.trim().toLowerCase().split(/[-_]/)[0]!;
}

/**
 * The features that speak one of VOICES (dialogue names one per speaker); an engine may serve them in some languages
 * only.
 */
export const VOICE_FEATURES = ['tts-common', 'tts-pro', 'dialogue'] as const;

/**
 * Whether an engine that speaks only `languages` (primary subtags; null: every language) can speak this voice.
 * An engine lists them when a provider needs a voice of its own per language (DreamAPI's audioId).
 */
export function voiceServed(voice: Voice, languages: readonly string[] | null | undefined): boolean {
  return !languages || languages.includes(primaryLanguage(voice.language));
}

/** A language's English name ('fr' → 'French'), the code itself where the runtime has no name for it. */
function languageLabel(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** What people and API callers are told about voices the engine serving a feature cannot speak. */
export const VOICE_MESSAGES = {
  /** The 400 of a submit whose voice the serving engine cannot speak; the public API names its voice field audioId. */
  notOnEngine: (voice: Voice, feature: string, engine: string, offered: readonly Voice[]) =>
    `audioId: the voice ${voice.id} speaks ${languageLabel(primaryLanguage(voice.language))}, which is not available on ${engine}, the engine serving ${feature} on this server; ${
      offered.length ? `choose one of ${offered.map((v) => v.id).join(', ')}` : 'it offers no voice here'
    }`,
  /** Beside a voice the playground cannot run here; short, as it sits in a card a third of the form wide. */
  pickerHint: (engine: string) => `Not on ${engine}`,
  /** The playground's problem when the chosen voice is one of those (e.g. chosen before switching to Pro). */
  pickProblem: (voice: Voice, engine: string, languages: readonly string[]) =>
    `${voice.name} speaks ${languageLabel(primaryLanguage(voice.language))}, which is not available on ${engine} here. Choose a voice in ${languages.map(languageLabel).join(' or ')}.`,
  /** The reference page's note of a speech call whose serving engine speaks only some languages. */
  referenceNote: (engine: string, languages: readonly string[], offered: readonly Voice[]) =>
    `On this server ${engine} serves this call in ${languages.map(languageLabel).join(', ')} only: other languages are not available on that engine, and a voice in one is refused with 400 naming audioId. Voices available: ${offered.map((v) => v.id).join(', ')}.`,
} as const;
