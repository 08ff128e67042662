// What a paste into a text field with a maxlength loses: the browser keeps what fits and drops the rest without a word.
import { pasteCutNotice } from '../product-rules';

/** The parts of an input or textarea a paste's fit depends on (DOM elements have them). */
export interface LimitedField {
  value: string;
  /** -1 (the DOM's value) or 0 and less mean "no limit". */
  maxLength: number;
  selectionStart: number | null;
  selectionEnd: number | null;
  tagName: string;
}

/**
 * How many characters of `pasted` the field drops: its value with the selection replaced by the paste, minus
 * the limit. Counted as maxlength counts (UTF-16 units); a textarea stores line breaks as one \n, an input drops them.
 */
export function pasteOverflow(field: LimitedField, pasted: string): number {
  if (!(field.maxLength > 0)) return 0;
  const text = field.tagName === 'TEXTAREA' ? pasted.replace(/\r\n?/g, '\n') : pasted.replace(/[\r\n]/g, '');
  const start = field.selectionStart ?? field.value.length;
  const end = field.selectionEnd ?? start;
  const after = field.value.length - (end - start) + text.length;
  return Math.max(0, after - field.maxLength);
}

/** The notice for a paste the field cuts, or null when it all fits. */
export function pasteCut(field: LimitedField, pasted: string): string | null {
  const over = pasteOverflow(field, pasted);
  return over > 0 ? pasteCutNotice(field.maxLength, over) : null;
}
