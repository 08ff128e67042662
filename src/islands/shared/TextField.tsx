// A controlled text control that reports its new text (not the change event), bare or labelled in a Field.
import type { ChangeEvent, InputHTMLAttributes } from 'react';
import Field, { type FieldProps } from './Field';

/** What every text control here takes: its text, where the new text goes, and its length limit. */
interface TextProps {
  value: string;
  /** Called with the new text: every form keeps the text, none wants the event. */
  onValue: (value: string) => void;
  maxLength: number;
  /** The control's class: the playground and the modals size their boxes differently. */
  className?: string;
  placeholder?: string;
}

type Control = HTMLInputElement | HTMLTextAreaElement;
const reporting = (onValue: (value: string) => void) => (event: ChangeEvent<Control>) => onValue(event.target.value);

/** A text input with no label of its own (it is named by aria-label or by a Field around it). */
export function TextInput({
  onValue,
  ...input
}: TextProps & Omit<InputHTMLAttributes<HTMLInputElement>, keyof TextProps | 'onChange'>) {
  return <input {...input} onChange={reporting(onValue)} />;
}

export interface TextFieldProps extends Omit<FieldProps, 'children'>, TextProps {
  /** A textarea, for text that runs over lines; `rows` sets its height where no CSS does. */
  multiline?: boolean;
  rows?: number;
}

/** A labelled text field: the label, hint and error come from Field, the control is an input or a textarea. */
export default function TextField({
  value,
  onValue,
  maxLength,
  className,
  placeholder,
  multiline,
  rows,
  ...field
}: TextFieldProps) {
  const control = { value, maxLength, className, placeholder };
  return (
    <Field {...field}>
      {multiline ? (
        <textarea {...control} rows={rows} onChange={reporting(onValue)} />
      ) : (
        <TextInput {...control} onValue={onValue} />
      )}
    </Field>
  );
}
