// The collector's own body caps over a real Node connection: a stated length is decided by the header, an unstated
// (chunked) one is counted as it arrives, and both refuse with the tracking 413 code; bodies under the cap reach the
// call.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRACKING_CODES, TRACKING_ERROR_CODES, TRACKING_LIMITS, TRACKING_PATHS } from '../../src/lib/product-rules';
import { createTestApp, type TestApp } from '../test-support/app';
import { listen, type Listening } from '../test-support/listen';

let t: TestApp;
let server: Listening;
let port: number;

beforeAll(async () => {
  t = await createTestApp();
  server = await listen(t.app.fetch);
  port = server.port;
});
afterAll(async () => {
  await server.close();
  await t.close();
});

/** POSTs JSON text: with its Content-Length when `body` is one string, chunked without one when it is several. */
function post(path: string, body: string | string[]): Promise<{ status: number; code: number; msg: string }> {
  return new Promise((resolve, reject) => {
    const stated = typeof body === 'string' ? { 'content-length': String(Buffer.byteLength(body)) } : {};
    const req = http.request(
      { host: '127.0.0.1', port, method: 'POST', path, headers: { 'content-type': 'application/json', ...stated } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('end', () => {
          const answer = JSON.parse(Buffer.concat(parts).toString('utf8')) as { code: number; msg: string };
          resolve({ status: res.statusCode ?? 0, code: answer.code, msg: answer.msg });
        });
      },
    );
    // The server may answer 413 and close before all of a large body is written.
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
    );
    if (Array.isArray(body)) for (const chunk of body) req.write(chunk);
    req.end(typeof body === 'string' ? body : undefined);
  });
}

const padded = (size: number) =>
  JSON.stringify({ app_key: 'dreamapi-web', device_id: 'device-1', pad: 'x'.repeat(size) });

describe('collector body caps on a real connection', () => {
  it("refuses a stated length over a small call's cap with 40013 and the limit", async () => {
    const r = await post(TRACKING_PATHS.accessToken, padded(TRACKING_LIMITS.smallBodyMaxBytes));
    expect(r).toMatchObject({ status: 413, code: TRACKING_ERROR_CODES.payloadTooLarge });
    expect(r.msg).toContain(String(TRACKING_LIMITS.smallBodyMaxBytes));
  });

  it('refuses a chunked body once it passes the cap, with the same code', async () => {
    const text = padded(TRACKING_LIMITS.smallBodyMaxBytes);
    const r = await post(TRACKING_PATHS.accessToken, [text.slice(0, 9000), text.slice(9000)]);
    expect(r).toMatchObject({ status: 413, code: TRACKING_ERROR_CODES.payloadTooLarge });
  });

  it('hands bodies under the cap to the call, stated or chunked', async () => {
    const text = JSON.stringify({ app_key: 'dreamapi-web', device_id: 'device-1' });
    for (const body of [text, [text.slice(0, 5), text.slice(5)]]) {
      const r = await post(TRACKING_PATHS.accessToken, body);
      expect(r).toMatchObject({ status: 200, code: TRACKING_CODES.ok });
    }
  });

  it('reads a batch body of stated length and checks it (a forged token is 40002, not a cap or a crash)', async () => {
    const body = JSON.stringify({
      token: 'forged.token',
      produceId: 'p',
      queueId: '100000001',
      sendTime: 1,
      batchCount: 1,
      msgEncrypt: 'AAAA',
      sign: '0'.repeat(64),
    });
    const r = await post(TRACKING_PATHS.trackInfo, body);
    expect(r).toMatchObject({ status: 401, code: TRACKING_CODES.tokenFailure });
  });
});
