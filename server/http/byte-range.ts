// The one byte range a Range header asks of a file (RFC 9110 §14): what media players send to seek and resume.
export type ByteRange = { start: number; end: number };

/**
 * The range `header` asks of a `size`-byte file: null to send the whole file (no header, another unit, several
 * ranges or a malformed one, which RFC 9110 lets a server ignore), 'unsatisfiable' when it starts past the end.
 */
export function requestedRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match) return null;
  const [, first, last] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    // A suffix: the last N bytes.
    const length = Number(last);
    if (length === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}
