// The caller's IP address for per-IP limits: the socket, or behind trusted proxies the rightmost address they did not
// add.
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import proxyAddr from 'proxy-addr';

/**
 * Which hops of a request's path are our own proxies (TRUST_PROXY): none (false), or a test of an address and its
 * distance from us (0 is the socket's peer, 1 the last X-Forwarded-For entry, and so on).
 */
export type ProxyTrust = false | ((address: string, hop: number) => boolean);

/**
 * TRUST_PROXY as proxy-addr reads Express's "trust proxy": `false`; a number of proxies in front (`true` is one,
 * never "every hop", which would believe what a client writes); or addresses and CIDRs of the proxies (`loopback`,
 * `uniquelocal` and the like too). Throws on anything else.
 */
export function parseProxyTrust(value: string): ProxyTrust {
  const text = value.trim().toLowerCase();
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true') return hops(1);
  if (/^\d+$/.test(text)) return hops(Number(text));
  const trusted = proxyAddr.compile(
    text
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  );
  return (address) => trusted(address, 0);
}

const hops =
  (count: number): ProxyTrust =>
  (_address, hop) =>
    hop < count;

/**
 * The client: the socket's peer, unless it is a trusted proxy; then, walking X-Forwarded-For from its end (proxies
 * append), the first address no trusted proxy added. Entries a client writes itself sit to the left of that and are
 * never believed.
 */
export function clientIp(c: Context, trust: ProxyTrust): string {
  // @hono/node-server puts the Node request in c.env.incoming; app.request() in tests has no socket.
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const socket = incoming?.socket?.remoteAddress ?? 'unknown';
  if (!trust) return socket;
  const forwarded = c.req.header('x-forwarded-for');
  const request = {
    socket: { remoteAddress: socket },
    connection: { remoteAddress: socket },
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
  };
  return proxyAddr(request as unknown as IncomingMessage, trust) || socket;
}
