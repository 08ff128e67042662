// Every page's paste watcher, kept out of the first load's weight: a paste into a field with a limit is measured during
// the event (the clipboard and the selection are only known then) by a snapshot, and the measuring code loads only
// then.

/** Marks a control that says what a paste lost by itself, under the field; the page-wide watcher leaves it alone. */
export const OWN_PASTE_NOTICE = 'data-paste-notice';

/**
 * Calls `onCut` with the notice when a paste into any input or textarea passes its maxlength, so no field drops text
 * silently.
 */
export function watchPasteCuts(onCut: (message: string) => void, root: Document = document): Promise<void>[] {
  const pending: Promise<void>[] = [];
  root.addEventListener('paste', (event) => {
    const field = event.target;
    if (
      !(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) ||
      !(field.maxLength > 0) ||
      field.hasAttribute(OWN_PASTE_NOTICE)
    )
      return;
    const { value, maxLength, selectionStart, selectionEnd, tagName } = field;
    const pasted = event.clipboardData?.getData('text') ?? '';
    const told = import('./paste-limit').then(({ pasteCut }) => {
      const notice = pasteCut({ value, maxLength, selectionStart, selectionEnd, tagName }, pasted);
      if (notice) onCut(notice);
    });
    pending.push(told);
  });
  // What each paste's measuring became, for tests to wait on.
  return pending;
}
