// The advanced settings disclosure itself: a control for each setting the serving engine honours, and Reset (loaded by
// AdvancedSettings).
import { RUN_OPTIONS, VIDEO_ASPECT_RATIOS, type RunOption } from '../../lib/product-rules';
import type { RunSettings } from './run-settings';
import SegmentedChoice from './SegmentedChoice';
import Field from '../shared/Field';
import TextField from '../shared/TextField';
import styles from './playground.module.css';
import own from './disclosures.module.css';

export interface AdvancedSettingsProps {
  /** What the serving engine honours; nothing is shown when it honours none (or while that is unknown). */
  options: readonly RunOption[];
  value: RunSettings;
  onChange: (settings: RunSettings) => void;
  /** Names the controls' ids, unique on the page. */
  idPrefix: string;
  /** Open from the start (the person opened the disclosure before the settings were known). */
  initiallyOpen?: boolean;
}

const ASPECTS = VIDEO_ASPECT_RATIOS.map((r) => ({ value: r, label: r }));

function Slider({
  id,
  option,
  value,
  onChange,
}: {
  id: string;
  option: 'speed' | 'pitch';
  value: number | undefined;
  onChange: (v: number | undefined) => void;
}) {
  const spec = RUN_OPTIONS[option];
  const shown = value ?? spec.default;
  return (
    <Field
      id={id}
      label={`${spec.label}: ${shown}${value === undefined ? ' (default)' : ''}`}
      hint={`${spec.min}–${spec.max}, ${spec.hint}`}
    >
      <input
        type="range"
        min={spec.min}
        max={spec.max}
        step={spec.step}
        value={shown}
        onChange={(e) => onChange(Number(e.target.value) === spec.default ? undefined : Number(e.target.value))}
      />
    </Field>
  );
}

export default function AdvancedSettingsForm({
  options,
  value,
  onChange,
  idPrefix,
  initiallyOpen,
}: AdvancedSettingsProps) {
  const set = (patch: RunSettings) => onChange({ ...value, ...patch });
  const changed = options.some((o) => value[o] !== undefined && value[o] !== '');
  return (
    <details className={own.advanced} open={changed || initiallyOpen || undefined} data-testid="advanced-settings">
      <summary className="field-label">Advanced settings</summary>
      <div className={own.body}>
        {options.includes('speed') && (
          <Slider id={`${idPrefix}-speed`} option="speed" value={value.speed} onChange={(speed) => set({ speed })} />
        )}
        {options.includes('pitch') && (
          <Slider id={`${idPrefix}-pitch`} option="pitch" value={value.pitch} onChange={(pitch) => set({ pitch })} />
        )}
        {options.includes('aspectRatio') && (
          <SegmentedChoice
            legend={RUN_OPTIONS.aspectRatio.label}
            name={`${idPrefix}-aspect`}
            choices={ASPECTS}
            value={value.aspectRatio ?? RUN_OPTIONS.aspectRatio.default}
            onChange={(aspectRatio) =>
              set({ aspectRatio: aspectRatio === RUN_OPTIONS.aspectRatio.default ? undefined : aspectRatio })
            }
          />
        )}
        {options.includes('seed') && (
          <Field
            id={`${idPrefix}-seed`}
            label={RUN_OPTIONS.seed.label}
            hint={`Empty for a new result each time; ${RUN_OPTIONS.seed.hint}.`}
          >
            <input
              className={styles.input}
              type="number"
              inputMode="numeric"
              min={RUN_OPTIONS.seed.min}
              max={RUN_OPTIONS.seed.max}
              step={1}
              value={value.seed ?? ''}
              onChange={(e) =>
                set({
                  seed:
                    e.target.value === ''
                      ? undefined
                      : Math.min(
                          RUN_OPTIONS.seed.max,
                          Math.max(RUN_OPTIONS.seed.min, Math.trunc(Number(e.target.value))),
                        ),
                })
              }
            />
          </Field>
        )}
        {options.includes('negativePrompt') && (
          <TextField
            id={`${idPrefix}-negative`}
            label={RUN_OPTIONS.negativePrompt.label}
            hint={RUN_OPTIONS.negativePrompt.hint}
            className={styles.input}
            maxLength={RUN_OPTIONS.negativePrompt.maxChars}
            value={value.negativePrompt ?? ''}
            onValue={(negativePrompt) => set({ negativePrompt: negativePrompt || undefined })}
          />
        )}
        {changed && (
          <button type="button" className="button button--ghost" onClick={() => onChange({})}>
            Reset to defaults
          </button>
        )}
      </div>
    </details>
  );
}
