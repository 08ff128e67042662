// fal storage through the official client's storage.upload: initiate on rest.fal.ai with storage_type=fal-cdn-v3, one
// PUT, or multipart above 90 MB.
import { falClient, type FalClientConfig } from './fal-client';
import { falCall } from './fal-errors';

/**
 * A file for fal storage: bytes already in memory or a Blob (a file opened with openAsBlob is read part by part from
 * disk).
 */
export interface FalUploadFile {
  data: Buffer | Blob;
  mime: string;
  name: string;
}

/**
 * Puts a file in fal storage and answers its URL. The client picks the way (fal-ai/fal-js libs/client/src/storage.ts
 * upload(), commit 381105e138b85502b528fb8f6c16d909e30e462a): above 90 MB initiate-multipart and 10 MB parts PUT in
 * order, each tried up to 3 times, then complete; else initiate and one PUT. It takes no abort signal for uploads, so
 * the client is given the run's signal through its fetch (fal-client.ts). A File of a Blob refers to the Blob's bytes
 * (no copy); a Buffer is copied once into it.
 */
export function falUpload(c: FalClientConfig, file: FalUploadFile, signal: AbortSignal): Promise<string> {
  const client = falClient(c, { signal, policy: 'read' });
  const blob = new File([file.data instanceof Blob ? file.data : (file.data as Uint8Array<ArrayBuffer>)], file.name, {
    type: file.mime,
  });
  return falCall('upload', signal, () => client.storage.upload(blob));
}
