// A real S3-protocol server (s3rver) on a random local port for media-store tests, and the S3_* settings that reach it;
// it can be stopped and started again (outage tests).
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
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
  /** An outage: the port closes and every open connection is cut; the objects stay on disk. */
  stop(): Promise<void>;
  /** The end of the outage: the same port and objects again. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestS3(bucket = 'test-bucket'): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 's3rver-'));
  const serve = async (port: number) => {
    const server = new S3rver({
      port,
      address: '127.0.0.1',
      directory,
      silent: true,
      configureBuckets: [{ name: bucket }],
    });
    return { server, address: await server.run() };
  };
  let { server, address } = await serve(0);
  let running = true;
  const endpoint = `http://127.0.0.1:${address.port}`;
  const stop = async () => {
    if (!running) return;
    running = false;
    const closing = server.close();
    // Keep-alive connections would otherwise go on answering: an outage cuts them too.
    (server as unknown as { httpServer: Server }).httpServer.closeAllConnections();
    await closing;
  };
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
    stop,
    async start() {
      if (running) return;
      ({ server, address } = await serve(address.port));
      running = true;
    },
    async close() {
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
