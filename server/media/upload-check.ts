// Checks an upload by its bytes, never by its name: an accepted format of an allowed kind, under the size and length
// caps.
import { AppError } from '../http/errors';
import { ERROR_CODES, UPLOAD_LIMITS, UPLOAD_PROBE, type MediaKind } from '../../src/lib/product-rules';
import { NO_FFPROBE_MESSAGE, probeMediaFile, type ProbedMedia } from './probe';
import type { SniffedType } from './sniff';

function unsupported(message: string): AppError {
  return new AppError(415, ERROR_CODES.unsupportedMediaType, message);
}

const acceptedTypes = (allowed: readonly MediaKind[]) => allowed.flatMap((k) => UPLOAD_LIMITS[k].mimes).join(', ');

/** The size caps, checked before anything is read: no file larger than any allowed kind is probed. */
export function checkUploadSize(size: number, allowed: readonly MediaKind[], field = 'file'): void {
  if (size === 0) throw new AppError(400, ERROR_CODES.invalidInput, `${field}: the file is empty`);
  const cap = Math.max(...allowed.map((k) => UPLOAD_LIMITS[k].maxBytes));
  if (size > cap)
    throw new AppError(
      413,
      ERROR_CODES.payloadTooLarge,
      `${field}: ${allowed.join(' or ')} files may be at most ${cap / (1024 * 1024)} MB`,
    );
}

const notMedia = (allowed: readonly MediaKind[], field: string) =>
  unsupported(
    `${field}: the content is not a recognised media file (accepted: ${acceptedTypes(allowed)}); the file name does not matter`,
  );
const wrongKind = (mime: string, allowed: readonly MediaKind[], field: string) =>
  unsupported(
    `${field}: this is ${mime}, but ${allowed.join(' or ')} is expected here (accepted: ${acceptedTypes(allowed)})`,
  );

/**
 * What the first bytes alone settle, before a whole file is fetched: a format we do not take, or one of a kind not
 * allowed here (a movie container that may hold sound only passes when audio is allowed), is refused.
 * `unsure`: the head could not be read to the end (an ID3 tag longer than it), so only the whole file can tell.
 */
export function checkSniffed(
  sniffed: SniffedType | null,
  allowed: readonly MediaKind[],
  field = 'file',
  unsure = false,
): void {
  if (!sniffed) {
    if (unsure) return;
    throw notMedia(allowed, field);
  }
  if (!allowed.includes(sniffed.kind) && !(sniffed.audioOnlyMime && allowed.includes('audio')))
    throw wrongKind(sniffed.mime, allowed, field);
}

/** The measured media against the kind, type, size and length caps; the media when it passes. */
export function checkProbed(
  probed: ProbedMedia | null,
  size: number,
  allowed: readonly MediaKind[],
  field = 'file',
): ProbedMedia {
  if (!probed) throw notMedia(allowed, field);
  if (!allowed.includes(probed.kind)) throw wrongKind(probed.mime, allowed, field);
  const limits = UPLOAD_LIMITS[probed.kind];
  if (!limits.mimes.includes(probed.mime))
    throw unsupported(`${field}: ${probed.mime} is not accepted (accepted: ${acceptedTypes(allowed)})`);
  if (size > limits.maxBytes) {
    throw new AppError(
      413,
      ERROR_CODES.payloadTooLarge,
      `${field}: ${probed.kind} files may be at most ${limits.maxBytes / (1024 * 1024)} MB`,
    );
  }
  if (probed.kind !== 'image' && probed.durationS === null)
    throw unsupported(`${field}: this ${probed.mime} file holds no playable ${probed.kind}`);
  if (limits.maxDurationS !== null && probed.durationS !== null && probed.durationS > limits.maxDurationS) {
    throw new AppError(
      413,
      ERROR_CODES.payloadTooLarge,
      `${field}: ${probed.kind} may be at most ${limits.maxDurationS} seconds long, this is ${Math.ceil(probed.durationS)} s`,
    );
  }
  return probed;
}

/**
 * The whole check of a file on disk. It is read where it lies (its head sniffed, the tools read the rest), never
 * loaded whole. The length is measured by probe.ts (every packet, not a header's claim), the same measure that
 * settles per-second charges.
 */
export async function checkUploadFile(
  file: string,
  size: number,
  allowed: readonly MediaKind[],
  field = 'file',
): Promise<ProbedMedia> {
  checkUploadSize(size, allowed, field);
  const signal = AbortSignal.timeout(UPLOAD_PROBE.timeoutMs);
  let probed;
  try {
    probed = await probeMediaFile(file, { signal });
  } catch (error) {
    if (signal.aborted)
      throw unsupported(
        `${field}: the file could not be read in ${UPLOAD_PROBE.timeoutMs / 1000} s; send a simpler or shorter file (accepted: ${acceptedTypes(allowed)})`,
      );
    if (error instanceof Error && error.message === NO_FFPROBE_MESSAGE)
      throw new AppError(503, ERROR_CODES.unavailable, `${field}: ${NO_FFPROBE_MESSAGE}`);
    throw error;
  }
  return checkProbed(probed, size, allowed, field);
}
