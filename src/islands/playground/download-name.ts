// Names results are saved under: <feature>-<local date and time>.<ext> (e.g. tts-common-2025-01-31-1405.wav), never the
// stored id.
import { MEDIA_EXTENSIONS } from '../../lib/product-rules';
import type { TaskOutput } from './api';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The file name of output `index` (counted from 0) of a task; a second output of the same task gets "-2", and so on.
 */
export function downloadName(feature: string, createdAt: number, output: Pick<TaskOutput, 'mime'>, index = 0): string {
  const d = new Date(createdAt);
  const stamp = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}`;
  const ext = MEDIA_EXTENSIONS[output.mime] ?? 'bin';
  return `${feature.replace(/[^A-Za-z0-9-]/g, '') || 'result'}-${stamp}${index > 0 ? `-${index + 1}` : ''}.${ext}`;
}

/**
 * The link that saves it under that name: the server answers `?download=` with Content-Disposition, which also works
 * when the API is on another origin (where the download attribute is ignored).
 */
export function downloadHref(output: Pick<TaskOutput, 'url'>, name: string): string {
  return `${output.url}${output.url.includes('?') ? '&' : '?'}download=${encodeURIComponent(name)}`;
}
