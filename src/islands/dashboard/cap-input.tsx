// A credit cap typed in the dashboard (a new key's caps, a key's cap editor): its field, and its value, where an empty
// field means no cap.
import { KEY_CAPS } from '../../lib/product-rules';

export function capOf(value: string): number | null {
  const trimmed = value.trim();
  return trimmed === '' ? null : Number(trimmed);
}

/** A labelled whole-number field of credits, empty for no cap. */
export function CapField({ label, value, onChange }: { label: string; value: string; onChange(value: string): void }) {
  return (
    <label>
      {label}
      <input
        type="number"
        min={1}
        max={KEY_CAPS.maxCredits}
        step={1}
        inputMode="numeric"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="No cap"
      />
    </label>
  );
}
