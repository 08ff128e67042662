// fal storage as fal's own client uploads (fal-ai/fal-js libs/client/src/storage.ts): one PUT, or multipart above 90 MB, parts read as slices.
import { FAL_STORAGE, PROVIDER_RETRY } from '../../../src/lib/spec';
import { json, providerFetch, ProviderError } from './http';

const PROVIDER = 'fal.ai';

/** A file for fal storage: bytes already in memory (sliced as views, never copied) or a Blob (a file's slices stream from disk). */
export interface FalUploadFile {
  data: Buffer | Blob;
  mime: string;
  name: string;
}

export interface FalStorageConfig {
  key: string;
  storageUrl: string;
}

/** What both initiate calls answer: where to send the bytes, and the URL the file will have. */
interface Initiated {
  uploadUrl: string;
  fileUrl: string;
}

const sizeOf = (data: Buffer | Blob) => (data instanceof Blob ? data.size : data.byteLength);

/** A part of the file as a request body: a view of a Buffer or a lazy slice of a Blob (no copy of the bytes either way). */
function slice(data: Buffer | Blob, start: number, end: number): Blob | Uint8Array<ArrayBuffer> {
  if (data instanceof Blob) return data.slice(start, end);
  return new Uint8Array(data.buffer as ArrayBuffer, data.byteOffset + start, end - start);
}

/** POST {storage}/storage/upload/{initiate|initiate-multipart}?storage_type=fal-cdn-v3 {content_type, file_name}. */
async function initiate(c: FalStorageConfig, path: 'initiate' | 'initiate-multipart', file: FalUploadFile, signal: AbortSignal): Promise<Initiated> {
  const res = await providerFetch({
    provider: PROVIDER,
    url: `${c.storageUrl}/storage/upload/${path}?storage_type=${FAL_STORAGE.storageType}`,
    method: 'POST',
    headers: { authorization: `Key ${c.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ content_type: file.mime, file_name: file.name }),
    signal,
  });
  const answer = await json<{ upload_url?: unknown; file_url?: unknown }>(res, PROVIDER);
  if (typeof answer.upload_url !== 'string' || typeof answer.file_url !== 'string') throw new ProviderError(`${PROVIDER} sent a malformed upload answer`);
  return { uploadUrl: answer.upload_url, fileUrl: answer.file_url };
}

/** One PUT of the whole file to the presigned upload URL (it carries its own authorisation, not our key). */
async function singleUpload(c: FalStorageConfig, file: FalUploadFile, signal: AbortSignal): Promise<string> {
  const { uploadUrl, fileUrl } = await initiate(c, 'initiate', file, signal);
  const body = slice(file.data, 0, sizeOf(file.data));
  await providerFetch({ provider: PROVIDER, url: uploadUrl, method: 'PUT', headers: { 'content-type': file.mime }, body, signal, timeoutMs: PROVIDER_RETRY.uploadTimeoutMs });
  return fileUrl;
}

/** `{upload_url}/{suffix}` with the upload URL's query (its signature) kept, as fal-js builds part and complete URLs. */
function besideUploadUrl(uploadUrl: string, suffix: string): string {
  const u = new URL(uploadUrl);
  return `${u.origin}${u.pathname}/${suffix}${u.search}`;
}

/**
 * Initiate multipart, PUT each part ({upload_url}/{n}, answered {partNumber, etag}) in order, then POST
 * {upload_url}/complete {parts}. A part is retried as a PUT is (it replaces itself); one part is in flight at a time.
 */
async function multipartUpload(c: FalStorageConfig, file: FalUploadFile, signal: AbortSignal): Promise<string> {
  const { uploadUrl, fileUrl } = await initiate(c, 'initiate-multipart', file, signal);
  const size = sizeOf(file.data);
  const parts: Array<{ partNumber: number; etag: string }> = [];
  for (let start = 0, partNumber = 1; start < size; start += FAL_STORAGE.partBytes, partNumber++) {
    const end = Math.min(start + FAL_STORAGE.partBytes, size);
    const res = await providerFetch({ provider: PROVIDER, url: besideUploadUrl(uploadUrl, String(partNumber)), method: 'PUT', body: slice(file.data, start, end), signal, timeoutMs: PROVIDER_RETRY.uploadTimeoutMs });
    const part = await json<{ partNumber?: unknown; etag?: unknown }>(res, PROVIDER);
    if (typeof part.etag !== 'string' || !part.etag) throw new ProviderError(`${PROVIDER} sent a malformed answer: part ${partNumber} has no etag`);
    parts.push({ partNumber: typeof part.partNumber === 'number' ? part.partNumber : partNumber, etag: part.etag });
  }
  await providerFetch({ provider: PROVIDER, url: besideUploadUrl(uploadUrl, 'complete'), method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ parts }), signal });
  return fileUrl;
}

/** Puts a file in fal storage and answers its URL: multipart above FAL_STORAGE.multipartAboveBytes, as fal-js does. */
export function falUpload(c: FalStorageConfig, file: FalUploadFile, signal: AbortSignal): Promise<string> {
  return sizeOf(file.data) > FAL_STORAGE.multipartAboveBytes ? multipartUpload(c, file, signal) : singleUpload(c, file, signal);
}
