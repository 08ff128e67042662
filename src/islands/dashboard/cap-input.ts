// A credit cap typed in the dashboard: an empty field means no cap.
export function capOf(value: string): number | null {
  const trimmed = value.trim();
  return trimmed === '' ? null : Number(trimmed);
}
