// Voice picker for speech: a language filter, the voices as radio cards each with a short preview, and cloned voices.
import { useId, useState } from 'react';
import { VOICE_MESSAGES, VOICES, voiceServed } from '../../lib/product-rules';
import type { ClonedVoice } from './cloned-voices';
import LanguageOptions, { languageName } from './LanguageOptions';
import { playPreview } from './voice-preview';
import { trackAction } from './track';
import styles from './playground.module.css';
import cards from './VoicePicker.module.css';

/** Cloned voices are told apart from the standard ones by this prefix in the picker's value. */
export const CLONE_PREFIX = 'clone:';

const LANGUAGES = [...new Set(VOICES.map((v) => v.language))];

interface Props {
  value: string;
  onChange: (value: string) => void;
  clones?: readonly ClonedVoice[];
  screen: string;
  /** The engine serving the run and the languages it speaks (features answer); voices in others are shown disabled. */
  served?: { engine: string; languages: readonly string[] } | null;
}

export default function VoicePicker({ value, onChange, clones = [], screen, served = null }: Props) {
  const id = useId();
  const [language, setLanguage] = useState('all');
  const [previewError, setPreviewError] = useState<string | null>(null);
  const shown = VOICES.filter((v) => language === 'all' || v.language === language);

  const preview = async (voiceId: string) => {
    trackAction(screen, 'voicepreview', 'click', { voiceId });
    setPreviewError(
      (await playPreview(voiceId)) ? null : 'The preview could not play. Check the sound output and try again.',
    );
  };

  return (
    <fieldset className={styles.voices}>
      <legend className="field-label">Voice</legend>
      <label className={styles.inline}>
        Language{' '}
        <select value={language} onChange={(e) => setLanguage(e.target.value)} id={`${id}-lang`}>
          <option value="all">All languages</option>
          <LanguageOptions codes={LANGUAGES} />
        </select>
      </label>
      <div className={`grid ${cards.voiceGrid}`} role="radiogroup" aria-label="Voices">
        {clones.map((c) => (
          <label key={c.cloneId} className={cards.voiceCard}>
            <input
              type="radio"
              name={`${id}-voice`}
              value={CLONE_PREFIX + c.cloneId}
              checked={value === CLONE_PREFIX + c.cloneId}
              onChange={() => onChange(CLONE_PREFIX + c.cloneId)}
            />
            <span>
              <strong>{c.name}</strong>
              <span className="field-hint">Your cloned voice</span>
            </span>
          </label>
        ))}
        {shown.map((v) => {
          const offHere = served !== null && !voiceServed(v, served.languages);
          return (
            <div key={v.id} className={cards.voiceCard}>
              <label className={cards.voiceLabel}>
                <input
                  type="radio"
                  name={`${id}-voice`}
                  value={v.id}
                  checked={value === v.id}
                  disabled={offHere}
                  onChange={() => onChange(v.id)}
                />
                <span>
                  <strong>{v.name}</strong>
                  <span className="field-hint">
                    {languageName(v.language)} · {v.gender}
                  </span>
                  {offHere && <span className="field-hint">{VOICE_MESSAGES.pickerHint(served.engine)}</span>}
                </span>
              </label>
              <button
                type="button"
                className={styles.iconButton}
                onClick={() => void preview(v.id)}
                aria-label={`Preview ${v.name}`}
              >
                ▶
              </button>
            </div>
          );
        })}
      </div>
      {previewError && <p className={styles.fieldError}>{previewError}</p>}
    </fieldset>
  );
}
