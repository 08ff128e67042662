// The 4 one-character code boxes of SPEC.md §4/§5: the first takes focus, typing moves on, paste fills them all, the
// 4th digit submits.
import { useEffect, useRef, type ClipboardEvent, type KeyboardEvent } from 'react';
import { LOGIN } from '../../lib/product-rules';
import styles from './modals.module.css';

interface Props {
  digits: string[];
  disabled?: boolean;
  onChange(digits: string[]): void;
  onComplete(code: string): void;
}

export default function CodeBoxes({ digits, disabled, onChange, onComplete }: Props) {
  const boxes = useRef<Array<HTMLInputElement | null>>([]);
  const empty = digits.every((d) => d === '');

  // The code step opens, or a wrong code cleared the boxes: the first digit takes focus, ready for typing.
  useEffect(() => {
    if (empty && !disabled) boxes.current[0]?.focus();
  }, [empty, disabled]);

  const update = (next: string[], focusAt: number) => {
    onChange(next);
    boxes.current[Math.min(focusAt, LOGIN.codeDigits - 1)]?.focus();
    if (next.every((d) => /^[0-9]$/.test(d))) onComplete(next.join(''));
  };

  const type = (index: number, value: string) => {
    const digit = value.replace(/\D/g, '').slice(-1);
    const next = [...digits];
    next[index] = digit;
    update(next, digit ? index + 1 : index);
  };

  const paste = (index: number, event: ClipboardEvent<HTMLInputElement>) => {
    const pasted = event.clipboardData.getData('text').replace(/\D/g, '');
    if (!pasted) return;
    event.preventDefault();
    const next = [...digits];
    for (let i = 0; i < pasted.length && index + i < LOGIN.codeDigits; i += 1) next[index + i] = pasted[i]!;
    update(next, index + pasted.length);
  };

  const key = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && !digits[index] && index > 0) boxes.current[index - 1]?.focus();
  };

  return (
    <div className={styles.digits} role="group" aria-label="Verification code">
      {digits.map((digit, index) => (
        <input
          key={index}
          ref={(el) => {
            boxes.current[index] = el;
          }}
          className={styles.digit}
          value={digit}
          onChange={(e) => type(index, e.target.value)}
          onPaste={(e) => paste(index, e)}
          onKeyDown={(e) => key(index, e)}
          inputMode="numeric"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          maxLength={1}
          disabled={disabled}
          aria-label={`Digit ${index + 1}`}
        />
      ))}
    </div>
  );
}
