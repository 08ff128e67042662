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
  return VOICES.find((v) => v.language.toLowerCase() === want) ?? VOICES.find((v) => primaryLanguage(v.language) === primaryLanguage(want));
}

/** The primary subtag of a language tag, lower-cased: 'en-US' and 'en_us' → 'en'. */
export function primaryLanguage(tag: string): string {
  return tag.trim().toLowerCase().split(/[-_]/)[0]!;
}
