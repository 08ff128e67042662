// A form field: its label, the control (the one child), a hint, an error and a paste notice, tied together by ids for
// assistive technology.
import { cloneElement, useState, type ClipboardEvent, type ReactElement, type ReactNode } from 'react';
import { OWN_PASTE_NOTICE } from '../../lib/site/paste-watch';

/** What Field sets on its control: the id the label points at, and the descriptions and validity it announces. */
export interface FieldControlProps {
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
  onPaste?: (event: ClipboardEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  /** Present: the field says what a paste lost itself, so the page-wide toast does not say it again. */
  [OWN_PASTE_NOTICE]?: string;
}

export interface FieldProps {
  /** The control's id: the label points at it; the hint and error ids are made from it. */
  id: string;
  label: ReactNode;
  /** The input, textarea or select; Field gives it `id`, `aria-describedby` and `aria-invalid`. */
  children: ReactElement<FieldControlProps>;
  /** Help under the control, read with it (aria-describedby). */
  hint?: ReactNode;
  /** The hint's id when something else refers to it; `${id}-hint` otherwise. */
  hintId?: string;
  /** The hint changes as the user types (e.g. a character count): announce its changes politely. */
  hintLive?: boolean;
  /** What is wrong with the value: shown under the control, read with it, and the control marked invalid. */
  error?: ReactNode;
  /** A secondary label (regular weight, muted), e.g. for each item of a list. */
  quiet?: boolean;
}

export default function Field({
  id,
  label,
  children,
  hint,
  hintId = `${id}-hint`,
  hintLive,
  error,
  quiet,
}: FieldProps) {
  const errorId = `${id}-error`;
  const pasteId = `${id}-paste`;
  // A paste longer than the control's maxlength is cut by the browser without a word: say what was left out.
  const [cut, setCut] = useState('');
  const onPaste = (event: ClipboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    children.props.onPaste?.(event);
    // Measured from what the event shows now; the measuring code loads with the first paste, not with the page.
    const { value, maxLength, selectionStart, selectionEnd, tagName } = event.currentTarget;
    const pasted = event.clipboardData.getData('text');
    void import('../../lib/site/paste-limit').then(({ pasteCut }) =>
      setCut(pasteCut({ value, maxLength, selectionStart, selectionEnd, tagName }, pasted) ?? ''),
    );
  };
  const hasHint = hint !== undefined && hint !== null && hint !== false;
  const hasError = error !== undefined && error !== null && error !== false && error !== '';
  const describedBy = [children.props['aria-describedby'], hasHint && hintId, hasError && errorId, cut && pasteId]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="field">
      <label className={quiet ? 'field-label field-quiet' : 'field-label'} htmlFor={id}>
        {label}
      </label>
      {cloneElement(children, {
        id,
        'aria-describedby': describedBy || undefined,
        'aria-invalid': hasError ? true : undefined,
        onPaste,
        [OWN_PASTE_NOTICE]: '',
      })}
      {hasHint && (
        <p id={hintId} className="field-hint" aria-live={hintLive ? 'polite' : undefined}>
          {hint}
        </p>
      )}
      {/* Always present, so the notice is announced when it appears; empty, it takes no room. */}
      <p id={pasteId} className="field-notice" role="status">
        {cut}
      </p>
      {hasError && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
