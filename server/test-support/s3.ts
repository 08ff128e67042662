// A real S3-protocol server (s3rver) on a random local port for media-store tests, and the S3_* settings that reach it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** s3rver checks request signatures against this one key pair. */
const S3RVER_KEY = 'S3RVER';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** Environment for loadConfig that puts media in this server's bucket under `prefix`. */
  env(prefix?: string): Record<string, string>;
  close(): Promise<void>;
}

export async function startTestS3(bucket = 'test-bucket'): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 's3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: (prefix = '') => ({
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: S3RVER_KEY,
      S3_SECRET_ACCESS_KEY: S3RVER_KEY,
      ...(prefix ? { S3_PREFIX: prefix } : {}),
    }),
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
