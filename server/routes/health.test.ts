// /readyz: every configured dependency checked (database, queue, Redis, S3), 503 naming what does not answer, 503 while
// draining; /healthz stays 200.
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { createLogger } from '../log';
import { ERROR_CODES, OPERATIONS_MESSAGES } from '../../src/lib/product-rules';
import { createTestApp, type TestApp } from '../test-support/app';
import { startTestS3, type TestS3 } from '../test-support/s3';

type Ready = {
  code: number;
  msg: string;
  data: { status: string; checks?: Record<string, { up: boolean; ms: number; error?: string }> };
};

let t: TestApp | undefined;
let s3: TestS3 | undefined;
afterEach(async () => {
  await t?.close();
  await s3?.close();
  t = s3 = undefined;
});

async function ready(app: TestApp['app']) {
  const res = await app.request('/readyz');
  return { status: res.status, body: (await res.json()) as Ready, cache: res.headers.get('cache-control') };
}

describe('GET /readyz', () => {
  it('is ready when the database and the queue answer, and checks nothing that is not configured', async () => {
    t = await createTestApp();
    const { status, body, cache } = await ready(t.app);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      code: 0,
      data: { status: 'ready', checks: { database: { up: true }, queue: { up: true } } },
    });
    expect(Object.keys(body.data.checks!).sort()).toEqual(['database', 'queue']);
    expect(cache).toBe('no-store');
  });

  it('checks Redis and the S3 bucket when configured, and names the one that does not answer', async () => {
    s3 = await startTestS3('ready-bucket');
    t = await createTestApp({ ...s3.env(), REDIS_URL: 'redis://127.0.0.1:6379' });
    const up = await ready(t.app);
    expect(up.status).toBe(200);
    expect(up.body.data.checks).toMatchObject({
      database: { up: true },
      queue: { up: true },
      redis: { up: true },
      s3: { up: true },
    });
    await t.close();

    // Nothing listens on port 1; the bucket does not exist.
    t = await createTestApp({ ...s3.env(), S3_BUCKET: 'no-such-bucket', REDIS_URL: 'redis://127.0.0.1:1' });
    const down = await ready(t.app);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({
      code: ERROR_CODES.unavailable,
      msg: OPERATIONS_MESSAGES.notReady(['redis', 's3']),
      data: { status: 'not ready' },
    });
    expect(down.body.data.checks).toMatchObject({ database: { up: true }, redis: { up: false }, s3: { up: false } });
    expect(down.body.data.checks!.redis!.error).toBeTruthy();
  }, 20_000);

  it('answers 503 at once while the process drains, while /healthz still answers 200', async () => {
    t = await createTestApp();
    const lifecycle = { draining: false };
    const app = createApp({
      config: t.config,
      database: t.database,
      log: createLogger('silent'),
      tasks: t.tasks,
      lifecycle,
    });
    expect((await ready(app)).status).toBe(200);
    lifecycle.draining = true;
    const draining = await ready(app);
    expect(draining.status).toBe(503);
    expect(draining.body).toMatchObject({
      code: ERROR_CODES.unavailable,
      msg: OPERATIONS_MESSAGES.draining,
      data: { status: 'draining' },
    });
    const health = await app.request('/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ data: { status: 'draining' } });
  });
});
