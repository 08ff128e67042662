// The playground's calls through the product API client (src/lib/api: 10 s timeout, §8 envelope, 40001 signs out),
// error tests.
import { ApiError, playgroundApi, type MediaInfo } from '../../lib/api';
import { API_CODES, TASK_ERROR_CODES, type MediaKind } from '../../lib/product-rules';

export { playgroundApi };

export type { FeatureState, SampleModel, TaskView, TaskOutputView as TaskOutput } from '../../lib/api';

/** What an upload answers (the same shape the server's media service returns). */
export type UploadedMedia = MediaInfo;

export const isInsufficientCredits = (e: unknown) =>
  e instanceof ApiError && e.code === TASK_ERROR_CODES.insufficientCredits;
export const isNotLoggedIn = (e: unknown) => e instanceof ApiError && e.code === API_CODES.notLoggedIn;

/**
 * Uploads one file as multipart `file`; resolves with the stored media, rejects with an ApiError carrying the server's
 * message.
 */
export function uploadFile(
  file: Blob,
  scene: MediaKind,
  onProgress: (fraction: number) => void,
  name = 'upload',
): Promise<UploadedMedia> {
  return playgroundApi.upload(file, scene, onProgress, name);
}
