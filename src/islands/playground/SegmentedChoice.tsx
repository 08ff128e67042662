// A radio group drawn as a row of buttons (quality, garment mode, clip options…): a legend and one label per choice.
import type { ReactNode } from 'react';
import choice from './SegmentedChoice.module.css';

interface Choice<T> {
  value: T;
  label: ReactNode;
}

interface Props<T extends string | boolean> {
  legend: string;
  /** The radios' name attribute, unique on the page. */
  name: string;
  choices: readonly Choice<T>[];
  value: T;
  onChange: (value: T) => void;
  disabled?: boolean;
}

export default function SegmentedChoice<T extends string | boolean>({
  legend,
  name,
  choices,
  value,
  onChange,
  disabled,
}: Props<T>) {
  return (
    <fieldset className={`cluster ${choice.segmented}`} disabled={disabled}>
      <legend className="field-label">{legend}</legend>
      {choices.map((c) => (
        <label key={String(c.value)}>
          <input
            type="radio"
            name={name}
            value={String(c.value)}
            checked={value === c.value}
            onChange={() => onChange(c.value)}
          />
          <span>{c.label}</span>
        </label>
      ))}
    </fieldset>
  );
}
