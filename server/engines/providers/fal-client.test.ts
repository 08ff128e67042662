// fal's official client as this server runs it: URLs moved onto our bases, a submit cut off after it may have reached
// fal never re-sent, a read retried after a reset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLocal, readBody, sendJson, type LocalServer } from '../../test-support/provider-fakes';
import { FAL_CLIENT_HOSTS, FAL_MESSAGES } from '../../../src/lib/product-rules';
import { falClient, onConfiguredBase } from './fal-client';
import { falCall } from './fal-errors';

/**
 * A queue that cuts the connection on the first request to each path (after reading it, as a gateway that queued it
 * might), then answers.
 */
let server: LocalServer;
const seen = new Map<string, number>();

beforeAll(async () => {
  server = await listenLocal(async (req, res) => {
    await readBody(req);
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const n = (seen.get(path) ?? 0) + 1;
    seen.set(path, n);
    if (n === 1) return req.socket.destroy();
    sendJson(res, 200, path.endsWith('/status') ? { status: 'COMPLETED' } : { request_id: 'r1' });
  });
});
afterAll(() => server.close());

const config = () => ({ key: 'k', queueUrl: `${server.url}/queue`, storageUrl: `${server.url}/rest` });

describe('fal client set-up', { timeout: 30_000 }, () => {
  it('moves the hosts the client builds on to the configured bases and refuses any other fal host', () => {
    expect(onConfiguredBase(`${FAL_CLIENT_HOSTS.queue}/fal-ai/wan-t2v?fal_webhook=x`, config())).toBe(
      `${server.url}/queue/fal-ai/wan-t2v?fal_webhook=x`,
    );
    expect(onConfiguredBase(`${FAL_CLIENT_HOSTS.rest}/storage/upload/initiate?storage_type=fal-cdn-v3`, config())).toBe(
      `${server.url}/rest/storage/upload/initiate?storage_type=fal-cdn-v3`,
    );
    expect(() => onConfiguredBase('https://fal.run/fal-ai/wan-t2v', config())).toThrow(
      FAL_MESSAGES.unknownHost('https://fal.run/fal-ai/wan-t2v'),
    );
  });

  it('a submit whose connection is reset is not sent again (fal may have queued it), though the client retries resets', async () => {
    const signal = AbortSignal.timeout(20_000);
    const client = falClient(config(), { signal, policy: 'submit' });
    await expect(
      falCall('submit', signal, () =>
        client.queue.submit('fal-ai/reset-submit', { input: { prompt: 'x' }, abortSignal: signal }),
      ),
    ).rejects.toThrow('it was not sent again');
    expect(seen.get('/queue/fal-ai/reset-submit')).toBe(1);
  });

  it('a status read whose connection is reset is read again by the client', async () => {
    const signal = AbortSignal.timeout(20_000);
    const client = falClient(config(), { signal, policy: 'read' });
    await expect(
      client.queue.status('fal-ai/reset-read', { requestId: 'r1', abortSignal: signal }),
    ).resolves.toMatchObject({ status: 'COMPLETED' });
    expect(seen.get('/queue/fal-ai/reset-read/requests/r1/status')).toBe(2);
  });
});
