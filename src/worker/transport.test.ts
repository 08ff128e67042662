// The worker's transport against the real collector on a local listener: an over-budget answer carries its Retry-After.
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRACKING_ERROR_CODES, TRACKING_PATHS, TRACKING_TOKEN_LIMITS } from '../lib/product-rules';
import { createTestApp, type TestApp } from '../../server/test-support/app';
import { fetchTransport } from './transport';

const KEY = 'transport-test';
let t: TestApp;
let server: ServerType;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ TRACKING_APP_KEYS: KEY });
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t.close();
});

describe('worker transport', () => {
  it('reads the Retry-After of an HTTP 429 into the answer; other answers carry none', async () => {
    const body = { app_key: KEY, device_id: 'transport-device' };
    const url = `${base}${TRACKING_PATHS.accessToken}`;
    for (let i = 0; i < TRACKING_TOKEN_LIMITS.perDevicePerWindow; i++) {
      const answer = await fetchTransport.post(url, body, 5000);
      expect(answer.code).toBe(0);
      expect(answer.retryAfterMs).toBeUndefined();
    }
    const refused = await fetchTransport.post(url, body, 5000);
    expect(refused.code).toBe(TRACKING_ERROR_CODES.rateLimited);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(TRACKING_TOKEN_LIMITS.windowMs);
  });
});
