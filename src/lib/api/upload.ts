// Multipart file uploads with progress, to this server or straight to its storage bucket, failing like every other call
// (SPEC.md §7, §8).
import { DIRECT_UPLOAD_MESSAGES, MESSAGES, REQUEST } from '../product-rules';
import { ApiError, apiBase, authHeaders, settle, type Envelope } from './client';

export interface UploadOptions {
  /** The share of the body sent so far, 0…1; 1 once the server has answered with success. */
  onProgress?: (fraction: number) => void;
  /** REQUEST.uploadTimeoutMs unless given (0: no limit); past it the call fails with the §8 network message. */
  timeoutMs?: number;
}

/**
 * POSTs a form with progress; resolves with the request once answered. XMLHttpRequest rather than fetch because only
 * it reports upload progress. A network failure or the time limit is the §8 network message.
 */
function sendForm(
  url: string,
  form: FormData,
  options: UploadOptions,
  headers: Record<string, string>,
): Promise<XMLHttpRequest> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.timeout = options.timeoutMs ?? REQUEST.uploadTimeoutMs;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) options.onProgress?.(e.loaded / e.total);
    };
    xhr.onerror = xhr.ontimeout = () => reject(new ApiError(MESSAGES.networkError, null));
    xhr.onload = () => resolve(xhr);
    xhr.send(form);
  });
}

/** POSTs a multipart form to this server: the headers, the envelope and 40001 are handled as in apiRequest. */
export async function apiUpload<T>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  const xhr = await sendForm(`${apiBase()}${path}`, form, options, authHeaders());
  let body: Envelope = {};
  try {
    body = JSON.parse(xhr.responseText) as Envelope;
  } catch {
    // A proxy's HTML error page: settled as the generic failure.
  }
  const data = settle<T>(body);
  options.onProgress?.(1);
  return data;
}

/**
 * POSTs a form straight to the storage bucket a policy names (the server's S3 presigned POST). No session header goes
 * there: the policy's signed fields authorise it. A refusal answers S3's XML, whose message is kept. A bucket without
 * CORS for this site fails as the network does (the browser hides its answer): docs/scaling.md says what to set.
 */
export async function storageUpload(url: string, form: FormData, options: UploadOptions = {}): Promise<void> {
  const xhr = await sendForm(url, form, options, {});
  if (xhr.status >= 200 && xhr.status < 300) return;
  const reason = /<Message>([^<]*)<\/Message>/.exec(xhr.responseText)?.[1];
  throw new ApiError(DIRECT_UPLOAD_MESSAGES.storageRefused(reason ?? `HTTP ${xhr.status}`), null);
}
