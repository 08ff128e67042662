// The dialog shell every account modal uses: backdrop, title, close button, Escape to close, focus inside.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import styles from './modals.module.css';

interface Props {
  title: string;
  onClose?: (() => void) | undefined;
  children: ReactNode;
}

export default function Modal({ title, onClose, children }: Props) {
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const first = dialog.current?.querySelector<HTMLElement>('input, textarea, button:not([data-close])');
    first?.focus();
  }, []);

  useEffect(() => {
    if (!onClose) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <div className={styles.backdrop}>
      <div ref={dialog} className={styles.dialog} role="dialog" aria-modal="true" aria-labelledby={titleId}>
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
      </div>
    </div>
  );
}
