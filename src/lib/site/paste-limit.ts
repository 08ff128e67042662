// What a paste into a text field with a maxlength loses: the browser keeps what fits and drops the rest without a word.
import { pasteCutNotice } from '../spec';

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

/** Marks a control that says what a paste lost by itself, under the field; the page-wide watcher leaves it alone. */
export const OWN_PASTE_NOTICE = 'data-paste-notice';

/**
 * Page-wide: calls `onCut` with the notice when a paste into any input or textarea passes its maxlength, so no
 * field drops text silently. Measured during the event, as the clipboard and the selection are only known then.
 */
export function watchPasteCuts(onCut: (message: string) => void, root: Document = document): void {
  root.addEventListener('paste', (event) => {
    const field = event.target;
    if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) || field.hasAttribute(OWN_PASTE_NOTICE)) return;
    const over = pasteOverflow(field, event.clipboardData?.getData('text') ?? '');
    if (over > 0) onCut(pasteCutNotice(field.maxLength, over));
  });
}
