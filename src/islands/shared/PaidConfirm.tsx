// The one question every paid action asks before it spends credits (Run again, Try it): its cost, then confirm or
// cancel; the confirm button takes the focus so Enter answers it.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import styles from './PaidConfirm.module.css';

interface Props {
  /** Names the group for assistive technology, e.g. "Run Speech · Pro again?". */
  label?: string;
  /** The question with the cost in it, e.g. "Run it again for 12 credits?". */
  question: ReactNode;
  /** The confirm button's words, naming what it spends, e.g. "Send and spend 60 credits". */
  confirm: string;
  onConfirm: () => void;
  onCancel: () => void;
}

export default function PaidConfirm({ label, question, confirm, onConfirm, onCancel }: Props) {
  const button = useRef<HTMLButtonElement>(null);
  const questionId = useId();
  useEffect(() => button.current?.focus(), []);
  return (
    <div
      className={styles.ask}
      role="group"
      aria-label={label}
      aria-labelledby={label ? undefined : questionId}
      data-testid="paid-confirm"
    >
      <p id={questionId} className={styles.question}>
        {question}
      </p>
      <div className={styles.actions}>
        <button ref={button} type="button" className="button" onClick={onConfirm}>
          {confirm}
        </button>
        <button type="button" className="button button--ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
