// Who the client is behind proxies: the rightmost address our own proxies did not add; what a client writes is never
// believed.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientIp, parseProxyTrust, type ProxyTrust } from './client-ip';

/** The address clientIp() finds for a request from `socket` carrying `forwarded`. */
async function seen(trust: ProxyTrust, socket: string, forwarded?: string): Promise<string> {
  const app = new Hono();
  app.get('/', (c) => c.text(clientIp(c, trust)));
  const res = await app.request(
    '/',
    { headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } },
    { incoming: { socket: { remoteAddress: socket } } },
  );
  return res.text();
}

describe('clientIp', () => {
  it('without TRUST_PROXY is the socket peer, whatever X-Forwarded-For says', async () => {
    expect(await seen(parseProxyTrust('false'), '198.51.100.4', '203.0.113.9')).toBe('198.51.100.4');
  });

  it('behind one proxy (true or 1) is the entry that proxy appended, not the ones the client wrote before it', async () => {
    for (const setting of ['true', '1']) {
      const trust = parseProxyTrust(setting);
      expect(await seen(trust, '10.0.0.2', '203.0.113.9')).toBe('203.0.113.9');
      // A client that sends its own X-Forwarded-For gets the proxy's entry added after it: that one counts.
      expect(await seen(trust, '10.0.0.2', '1.2.3.4, 203.0.113.9')).toBe('203.0.113.9');
      expect(await seen(trust, '10.0.0.2', `${Math.floor(Math.random() * 200)}.9.9.9, 5.6.7.8, 203.0.113.9`)).toBe(
        '203.0.113.9',
      );
      expect(await seen(trust, '10.0.0.2')).toBe('10.0.0.2');
    }
  });

  it('behind two proxies skips both of their hops', async () => {
    expect(await seen(parseProxyTrust('2'), '10.0.0.2', '6.6.6.6, 203.0.113.9, 10.0.0.1')).toBe('203.0.113.9');
  });

  it('with a list of proxy addresses walks back only through those', async () => {
    const trust = parseProxyTrust('10.0.0.0/8, loopback');
    expect(await seen(trust, '127.0.0.1', '6.6.6.6, 203.0.113.9, 10.1.2.3')).toBe('203.0.113.9');
    // A peer that is not one of our proxies is the client, and its header is not read.
    expect(await seen(trust, '198.51.100.4', '203.0.113.9')).toBe('198.51.100.4');
  });

  it('refuses a TRUST_PROXY that is none of these', () => {
    expect(() => parseProxyTrust('maybe')).toThrow();
    expect(parseProxyTrust('')).toBe(false);
    expect(parseProxyTrust('0')).toBe(false);
  });
});
