// The playground's file upload (loaded with the first file, not with the screens): straight to the bucket when the
// server hands out a policy (its media is in S3) and checked on finish, otherwise to the server as multipart `file`.
import type { z } from 'zod';
import { REQUEST, type MediaKind } from '../product-rules';
import type { uploadPolicyData } from '../api-contract/schemas';
import { apiRequest } from './client';
import type { MediaInfo } from './types';
import { apiUpload, storageUpload } from './upload';

type UploadPolicy = z.infer<typeof uploadPolicyData>;

/** The share of the bar the bytes fill; the rest is the server's check on finish. */
const FINISHING = 0.95;

/**
 * A policy's fields, then the file last (S3 reads no field after it); its own type where the policy's family allows.
 */
function directForm(policy: UploadPolicy, file: Blob, name: string): FormData {
  const form = new FormData();
  for (const [field, value] of Object.entries(policy.fields)) {
    // "audio/" and the like name the family the policy takes; a policy of several kinds takes any type.
    const family = value.endsWith('/') ? value : '';
    form.append(
      field,
      field === 'Content-Type' && file.type !== '' && file.type.startsWith(family) ? file.type : value,
    );
  }
  form.append('file', file, name);
  return form;
}

/**
 * One file with its scene under `base` (the playground's prefix); progress as it goes, no time limit unless timeoutMs.
 */
export async function playgroundUpload(
  base: string,
  file: Blob,
  scene: MediaKind,
  onProgress: (fraction: number) => void,
  name: string,
  timeoutMs?: number,
): Promise<MediaInfo> {
  const policy = await apiRequest<UploadPolicy | null>(`${base}/file/v1/get_policy`, { scene }, { json: true });
  if (!policy) {
    const form = new FormData();
    form.append('scene', scene);
    form.append('file', file, name);
    return apiUpload<MediaInfo>(`${base}/file/v1/upload`, form, { onProgress, timeoutMs });
  }
  await storageUpload(policy.host, directForm(policy, file, name), {
    onProgress: (f) => onProgress(Math.min(f, FINISHING)),
    timeoutMs,
  });
  // Finish fetches and measures what arrived, as a pass-through upload is measured: the same time limit.
  const media = await apiRequest<MediaInfo>(
    `${base}/file/v1/policy_upload_finish`,
    { reqId: policy.reqId },
    { json: true, timeoutMs: timeoutMs ?? REQUEST.uploadTimeoutMs },
  );
  onProgress(1);
  return media;
}
