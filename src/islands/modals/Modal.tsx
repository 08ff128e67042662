// The dialog shell every account modal uses: a native <dialog> opened with showModal(), so focus stays inside and the
// page behind is inert; Escape and the close button close it, and focus goes back to what opened it.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import styles from './modals.module.css';

interface Props {
  title: string;
  onClose?: (() => void) | undefined;
  children: ReactNode;
}

/**
 * Where focus goes when a dialog closes: its opener when still shown, else the account button of the navigation bar.
 */
function returnFocus(opener: Element | null): void {
  const target =
    opener instanceof HTMLElement && opener.isConnected && opener.getClientRects().length > 0
      ? opener
      : document.querySelector<HTMLElement>('[data-account-focus]:not([hidden])');
  target?.focus();
}

export default function Modal({ title, onClose, children }: Props) {
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const opener = document.activeElement;
    if (!element.open) element.showModal();
    // showModal() focuses the first focusable element, which is the close button; a form's first field is more useful.
    element.querySelector<HTMLElement>('input, textarea, button:not([data-close]), a[href]')?.focus();
    // Escape fires `cancel`: the store decides what closes (the next queued modal may follow), not the browser.
    const onCancel = (event: Event) => {
      event.preventDefault();
      closeRef.current?.();
    };
    element.addEventListener('cancel', onCancel);
    return () => {
      element.removeEventListener('cancel', onCancel);
      if (element.open) element.close();
      returnFocus(opener);
    };
  }, []);

  return (
    <dialog ref={dialog} className={styles.dialog} aria-labelledby={titleId}>
      <div className={styles.head}>
        <h2 id={titleId} className={styles.title}>
          {title}
        </h2>
        {onClose && (
          <button type="button" className={styles.close} aria-label="Close" data-close onClick={onClose}>
            ×
          </button>
        )}
      </div>
      {children}
    </dialog>
  );
}
