// Multipart file uploads with progress, answered and failing like every other call of the client (SPEC.md §7, §8).
import { MESSAGES, REQUEST } from '../spec';
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
