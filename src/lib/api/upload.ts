// Multipart file uploads with progress, to this server or straight to its storage bucket, failing like every other call (SPEC.md §7, §8).
import { DIRECT_UPLOAD_MESSAGES, MESSAGES, REQUEST } from '../spec';
import { ApiError, apiBase, authHeaders, settle, type Envelope } from './client';

export interface UploadOptions {
  /** The share of the body sent so far, 0…1; 1 once the server has answered with success. */
  onProgress?: (fraction: number) => void;
  /** REQUEST.uploadTimeoutMs unless given (0: no limit); past it the call fails with the §8 network message. */
  timeoutMs?: number;
}

/**
 * POSTs a multipart form. XMLHttpRequest rather than fetch because only it reports upload progress; the headers,
 * the envelope and 40001 are handled as in apiRequest.
 */
export function apiUpload<T>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${apiBase()}${path}`);
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    xhr.timeout = options.timeoutMs ?? REQUEST.uploadTimeoutMs;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) options.onProgress?.(e.loaded / e.total);
    };
    xhr.onerror = xhr.ontimeout = () => reject(new ApiError(MESSAGES.networkError, null));
    xhr.onload = () => {
      let body: Envelope = {};
      try {
        body = JSON.parse(xhr.responseText) as Envelope;
      } catch {
        // A proxy's HTML error page: settled as the generic failure.
      }
      try {
        const data = settle<T>(body);
        options.onProgress?.(1);
        resolve(data);
      } catch (error) {
        reject(error);
      }
    };
    xhr.send(form);
  });
}

/**
 * POSTs a form straight to the storage bucket a policy names (the server's S3 presigned POST), with progress. No
 * session header goes there: the policy's signed fields authorise it. A refusal answers S3's XML; its message is kept.
 */
export function storageUpload(url: string, form: FormData, options: UploadOptions = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.timeout = options.timeoutMs ?? REQUEST.uploadTimeoutMs;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) options.onProgress?.(e.loaded / e.total);
    };
    // A bucket without CORS for this site lands here too (the browser hides its answer): docs/scaling.md says what to set.
    xhr.onerror = xhr.ontimeout = () => reject(new ApiError(MESSAGES.networkError, null));
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      const reason = /<Message>([^<]*)<\/Message>/.exec(xhr.responseText)?.[1];
      reject(new ApiError(DIRECT_UPLOAD_MESSAGES.storageRefused(reason ?? `HTTP ${xhr.status}`), null));
    };
    xhr.send(form);
  });
}
