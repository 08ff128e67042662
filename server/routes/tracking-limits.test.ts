// Collector budgets: messages, monitoring reports, tokens and batches per device, per client address and per day,
// refused with 429 and Retry-After (docs/tracking-protocol.md "Limits").
import { describe, expect, it, vi } from 'vitest';
import { signMessage } from '../../src/lib/tracking/cipher';
import {
  ERROR_CODES,
  TRACKING_BATCH_LIMITS,
  TRACKING_ERROR_CODES,
  TRACKING_LIMITS,
  TRACKING_MESSAGE_LIMITS,
  TRACKING_MONITOR_LIMITS,
  TRACKING_PATHS,
  TRACKING_TOKEN_LIMITS,
} from '../../src/lib/product-rules';
import { batch, entry, KEY, useProxiedCollector } from './tracking.fixtures';

/**
 * Sends as one device a window at a time (Date faked), each within the per-window budget, until it has sent past its
 * daily one; `window` counts from 1.
 */
async function sendPastTheDay(
  limits: { windowMs: number; perDevicePerWindow: number; perDevicePerDay: number },
  sendOne: (sent: number, window: number) => Promise<unknown>,
) {
  const start = Date.now();
  let sent = 0;
  let minute = 0;
  while (sent < limits.perDevicePerDay + limits.perDevicePerWindow) {
    vi.setSystemTime(start + minute++ * limits.windowMs);
    for (let i = 0; i < limits.perDevicePerWindow; i++, sent++) await sendOne(sent, minute);
  }
  return { start, minute, sent };
}

describe('message limits (docs/tracking-protocol.md "message")', () => {
  const LIMITS = TRACKING_MESSAGE_LIMITS;
  /** About 3.9 KB, under the 4,000-character message cap. */
  const text = (n: number) => `${n} `.padEnd(3900, 'x');
  const proxied = useProxiedCollector();
  const send = (ip: string, deviceId: string, message: string) =>
    proxied.call(TRACKING_PATHS.message, ip, {
      deviceId,
      appKey: KEY,
      appVersion: '1',
      platform: 'pc-web',
      platformVersion: 'x',
      message,
      sign: signMessage(KEY, deviceId, message),
    });
  const stored = async () =>
    (await proxied.app.database.db.selectFrom('tracking_messages').select(['device_id', 'message']).execute()).length;

  it('500 messages of 3.9 KB from one device and IP: the device budget is stored, the rest refused with 429 and Retry-After; other senders unaffected', async () => {
    const answers = [];
    for (let i = 0; i < 500; i++) answers.push(await send('203.0.113.7', 'flood', text(i)));
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBe(500 - LIMITS.perDevicePerWindow);
    expect(await stored()).toBe(LIMITS.perDevicePerWindow);
    expect(refused[0]).toMatchObject({
      code: TRACKING_ERROR_CODES.rateLimited,
      msg: expect.stringContaining('device'),
    });
    expect(TRACKING_ERROR_CODES.rateLimited).toBe(ERROR_CODES.rateLimited);
    expect(Number(refused[0]!.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused[0]!.retryAfter)).toBeLessThanOrEqual(LIMITS.windowMs / 1000);
    // Another device on another address, and another device behind the flooding address, are still heard.
    expect((await send('198.51.100.4', 'other', 'boom')).code).toBe(0);
    expect((await send('203.0.113.7', 'neighbour', 'boom')).code).toBe(0);
    expect(await stored()).toBe(LIMITS.perDevicePerWindow + 2);
  });

  it('500 messages from one IP, each naming a new device id: the address budget is stored, the rest refused', async () => {
    const answers = [];
    for (let i = 0; i < 500; i++) answers.push(await send('2001:db8:5:6::1', `device-${i}`, text(i)));
    expect(answers.filter((a) => a.status === 429)).toHaveLength(500 - LIMITS.perIpPerWindow);
    expect(answers.at(-1)).toMatchObject({
      code: TRACKING_ERROR_CODES.rateLimited,
      msg: expect.stringContaining('address'),
    });
    expect(await stored()).toBe(LIMITS.perIpPerWindow);
    // Another address of the same IPv6 /64 shares the budget; another /64 does not.
    expect((await send('2001:db8:5:6::99', 'fresh', 'boom')).status).toBe(429);
    expect((await send('2001:db8:5:7::1', 'fresh', 'boom')).code).toBe(0);
  });

  it('a device is held to its daily budget even when it keeps under the per-minute one; a new day window lets it in again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { start, minute } = await sendPastTheDay(LIMITS, (sent, minute) =>
      send(`192.0.2.${minute % 200}`, 'steady', text(sent)),
    );
    expect(await stored()).toBe(LIMITS.perDevicePerDay);
    // A fresh minute: the device is under its per-minute budget and refused for the day, until its day window ends.
    vi.setSystemTime(start + minute * LIMITS.windowMs);
    const refused = await send('192.0.2.250', 'steady', 'late');
    expect(refused).toMatchObject({
      status: 429,
      code: TRACKING_ERROR_CODES.rateLimited,
      msg: expect.stringContaining('today'),
    });
    expect(Number(refused.retryAfter)).toBe((LIMITS.dayMs - minute * LIMITS.windowMs) / 1000);
    expect(await stored()).toBe(LIMITS.perDevicePerDay);
    vi.setSystemTime(start + LIMITS.dayMs + 1);
    expect((await send('192.0.2.251', 'steady', 'next day')).code).toBe(0);
  });
});

describe('budgets of the other collector calls (docs/tracking-protocol.md "Limits")', () => {
  const proxied = useProxiedCollector();
  const { call } = proxied;
  const count = async (table: 'tracking_monitor' | 'tracking_events') =>
    Number(
      (
        await proxied.app.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** A 429 of the collector: code 40029, Retry-After within the window, and a message naming what ran out. */
  const refused = (r: Awaited<ReturnType<typeof call>>, windowMs: number, names: string) => {
    expect(r).toMatchObject({
      status: 429,
      code: TRACKING_ERROR_CODES.rateLimited,
      msg: expect.stringContaining(names),
    });
    expect(Number(r.retryAfter)).toBeGreaterThan(0);
    expect(Number(r.retryAfter)).toBeLessThanOrEqual(windowMs / 1000);
  };

  describe('monitor/report', () => {
    const LIMITS = TRACKING_MONITOR_LIMITS;
    /** About 4 KB a report: the largest message and page the schema lets through. */
    const report = (deviceId: string, n: number) => ({
      appKey: KEY,
      deviceId,
      kind: 'error',
      name: 'tracking',
      page: `/${n}`.padEnd(1024, 'p'),
      message: `${n} `.padEnd(TRACKING_LIMITS.messageMaxLength, 'x'),
    });

    it('500 reports from one device and IP: the device budget is stored, the rest refused with 429 and Retry-After; other senders unaffected', async () => {
      const answers = [];
      for (let i = 0; i < 500; i++) answers.push(await call(TRACKING_PATHS.monitor, '203.0.113.7', report('flood', i)));
      const over = answers.filter((a) => a.status === 429);
      expect(over).toHaveLength(500 - LIMITS.perDevicePerWindow);
      refused(over[0]!, LIMITS.windowMs, 'device');
      expect(await count('tracking_monitor')).toBe(LIMITS.perDevicePerWindow);
      expect((await call(TRACKING_PATHS.monitor, '198.51.100.4', report('other', 0))).code).toBe(0);
      expect((await call(TRACKING_PATHS.monitor, '203.0.113.7', report('neighbour', 0))).code).toBe(0);
      expect(await count('tracking_monitor')).toBe(LIMITS.perDevicePerWindow + 2);
    });

    it('reports from one IP, each naming a new device id: the address budget is stored, the rest refused; another address is heard', async () => {
      const sent = LIMITS.perIpPerWindow + 100;
      const answers = [];
      for (let i = 0; i < sent; i++)
        answers.push(await call(TRACKING_PATHS.monitor, '203.0.113.8', report(`device-${i}`, i)));
      expect(answers.filter((a) => a.status === 429)).toHaveLength(sent - LIMITS.perIpPerWindow);
      refused(answers.at(-1)!, LIMITS.windowMs, 'address');
      expect(await count('tracking_monitor')).toBe(LIMITS.perIpPerWindow);
      expect((await call(TRACKING_PATHS.monitor, '198.51.100.5', report('fresh', 0))).code).toBe(0);
    });

    it('a device is held to its daily budget while keeping under the per-minute one; the next day it is heard again', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const { start, minute, sent } = await sendPastTheDay(LIMITS, (sent) =>
        call(TRACKING_PATHS.monitor, '192.0.2.1', report('steady', sent)),
      );
      expect(await count('tracking_monitor')).toBe(LIMITS.perDevicePerDay);
      vi.setSystemTime(start + minute * LIMITS.windowMs);
      const late = await call(TRACKING_PATHS.monitor, '192.0.2.1', report('steady', sent));
      expect(late).toMatchObject({
        status: 429,
        code: TRACKING_ERROR_CODES.rateLimited,
        msg: expect.stringContaining('today'),
      });
      expect(Number(late.retryAfter)).toBe((LIMITS.dayMs - minute * LIMITS.windowMs) / 1000);
      vi.setSystemTime(start + LIMITS.dayMs + 1);
      expect((await call(TRACKING_PATHS.monitor, '192.0.2.1', report('steady', 0))).code).toBe(0);
    });

    it('reports without a device id are counted by their address, so one sender cannot use up a budget shared by all of them', async () => {
      for (let i = 0; i < LIMITS.perDevicePerWindow; i++)
        expect((await call(TRACKING_PATHS.monitor, '203.0.113.9', report('', i))).code).toBe(0);
      refused(await call(TRACKING_PATHS.monitor, '203.0.113.9', report('', 0)), LIMITS.windowMs, 'device');
      expect((await call(TRACKING_PATHS.monitor, '198.51.100.6', report('', 0))).code).toBe(0);
    });

    it('each stored field has a size cap: a longer page, message or name is refused with 40000 and nothing is stored', async () => {
      const base = report('d', 0);
      for (const over of [
        { page: 'p'.repeat(1025) },
        { message: 'x'.repeat(TRACKING_LIMITS.messageMaxLength + 1) },
        { name: 'n'.repeat(65) },
        { deviceId: 'd'.repeat(TRACKING_LIMITS.fieldMaxLength + 1) },
      ]) {
        const r = await call(TRACKING_PATHS.monitor, '203.0.113.10', { ...base, ...over });
        expect(r, JSON.stringify(Object.keys(over))).toMatchObject({
          status: 400,
          code: TRACKING_ERROR_CODES.invalidInput,
        });
      }
      expect(await count('tracking_monitor')).toBe(0);
    });
  });

  describe('access_token', () => {
    const LIMITS = TRACKING_TOKEN_LIMITS;
    const ask = (ip: string, deviceId: string) =>
      call(TRACKING_PATHS.accessToken, ip, { app_key: KEY, device_id: deviceId });

    it('one device asking again and again gets the device budget of tokens, then 429 with Retry-After; other devices are unaffected', async () => {
      const answers = [];
      for (let i = 0; i < 100; i++) answers.push(await ask('203.0.113.11', 'loop'));
      expect(answers.filter((a) => a.code === 0 && typeof a.data?.token === 'string')).toHaveLength(
        LIMITS.perDevicePerWindow,
      );
      const over = answers.filter((a) => a.status === 429);
      expect(over).toHaveLength(100 - LIMITS.perDevicePerWindow);
      refused(over[0]!, LIMITS.windowMs, 'device');
      expect(over[0]!.data).toBeNull();
      expect((await ask('203.0.113.11', 'neighbour')).code).toBe(0);
      expect((await ask('198.51.100.7', 'other')).code).toBe(0);
    });

    it('one IP inventing a device id per call gets the address budget of tokens; another address is unaffected', async () => {
      const sent = LIMITS.perIpPerWindow + 50;
      const answers = [];
      for (let i = 0; i < sent; i++) answers.push(await ask('2001:db8:7:7::1', `device-${i}`));
      expect(answers.filter((a) => a.code === 0)).toHaveLength(LIMITS.perIpPerWindow);
      refused(answers.at(-1)!, LIMITS.windowMs, 'address');
      // Another address of the same IPv6 /64 shares the budget; another /64 does not.
      expect((await ask('2001:db8:7:7::2', 'fresh')).status).toBe(429);
      expect((await ask('2001:db8:7:8::1', 'fresh')).code).toBe(0);
    });
  });

  describe('track_info', () => {
    const LIMITS = TRACKING_BATCH_LIMITS;
    async function sessionFor(ip: string, deviceId: string) {
      const token = (await call(TRACKING_PATHS.accessToken, ip, { app_key: KEY, device_id: deviceId })).data as {
        token: string;
        produceId: string;
        sign: string;
      };
      const config = await call(TRACKING_PATHS.trackConfig, ip, { token: token.token, sign: token.sign });
      return { ...token, ak: (config.data as { ak: string }).ak };
    }

    it('a device sending batch after batch gets its per-minute budget stored, then 429 with Retry-After, also with a new token; another device is unaffected; the next window lets it in', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const start = Date.now();
      const s = await sessionFor('203.0.113.12', 'busy');
      const sent = LIMITS.perDevicePerWindow + 50;
      const answers = [];
      for (let i = 0; i < sent; i++)
        answers.push(await call(TRACKING_PATHS.trackInfo, '203.0.113.12', batch(s, [entry(), entry()])));
      const over = answers.filter((a) => a.status === 429);
      expect(over).toHaveLength(sent - LIMITS.perDevicePerWindow);
      refused(over[0]!, LIMITS.windowMs, 'device');
      expect(await count('tracking_events')).toBe(2 * LIMITS.perDevicePerWindow);
      // The budget belongs to the device, not the token: a fresh token does not buy a fresh one.
      const again = await sessionFor('203.0.113.12', 'busy');
      expect((await call(TRACKING_PATHS.trackInfo, '203.0.113.12', batch(again, [entry()]))).status).toBe(429);
      const other = await sessionFor('203.0.113.12', 'calm');
      expect((await call(TRACKING_PATHS.trackInfo, '203.0.113.12', batch(other, [entry()]))).code).toBe(0);
      expect(await count('tracking_events')).toBe(2 * LIMITS.perDevicePerWindow + 1);
      vi.setSystemTime(start + LIMITS.windowMs);
      expect((await call(TRACKING_PATHS.trackInfo, '203.0.113.12', batch(s, [entry()]))).code).toBe(0);
    });
  });
});
