// Language codes as <option>s with English names (voice filter, translation languages), and the name lookup itself.
const LANGUAGE_NAMES: Record<string, string> = {
  'en-US': 'English (US)',
  'en-GB': 'English (UK)',
  es: 'Spanish',
  fr: 'French',
  de: 'German',
  it: 'Italian',
  pt: 'Portuguese',
  zh: 'Chinese',
  ja: 'Japanese',
};

export const languageName = (code: string) => LANGUAGE_NAMES[code] ?? code;

export default function LanguageOptions({ codes }: { codes: readonly string[] }) {
  return (
    <>
      {codes.map((l) => (
        <option key={l} value={l}>
          {languageName(l)}
        </option>
      ))}
    </>
  );
}
