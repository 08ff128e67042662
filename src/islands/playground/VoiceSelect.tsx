// A compact voice choice for one dialogue speaker: a select grouped by language and a preview button.
import { useId } from 'react';
import { VOICES } from '../../lib/product-rules';
import { languageName } from './LanguageOptions';
import { playPreview } from './voice-preview';
import { trackAction } from './track';
import Field from '../shared/Field';
import styles from './playground.module.css';
import dialogue from './dialogue.module.css';

const LANGUAGES = [...new Set(VOICES.map((v) => v.language))];

export default function VoiceSelect({
  label,
  value,
  onChange,
  screen,
}: {
  label: string;
  value: string;
  onChange: (id: string) => void;
  screen: string;
}) {
  const id = useId();
  return (
    <div className={dialogue.speaker}>
      <Field id={id} label={label}>
        <select value={value} onChange={(e) => onChange(e.target.value)} className={styles.input}>
          {LANGUAGES.map((l) => (
            <optgroup key={l} label={languageName(l)}>
              {VOICES.filter((v) => v.language === l).map((v) => (
                <option key={v.id} value={v.id}>
                  {v.name} ({v.gender})
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </Field>
      <button
        type="button"
        className={styles.iconButton}
        aria-label={`Preview: ${label}`}
        onClick={() => {
          trackAction(screen, 'voicepreview', 'click', { voiceId: value });
          void playPreview(value);
        }}
      >
        ▶
      </button>
    </div>
  );
}
