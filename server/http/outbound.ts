// Guard for requests to URLs users give (input media, webhooks): public addresses only, and the address checked is the
// one connected to.
import { lookup as systemLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { OUTBOUND, OUTBOUND_MESSAGES } from '../../src/lib/product-rules';

export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface OutboundPolicy {
  /** OUTBOUND_ALLOW_PRIVATE: lets localhost and private networks through (self-hosted setups, tests). */
  allowPrivate: boolean;
  /** All addresses of a host name; the system resolver (dns.lookup) unless given. */
  resolve?: (host: string) => Promise<ResolvedAddress[]>;
  /** Lets one non-public address and port through although private ones are refused. */
  allow?: (address: string, port: number) => boolean;
}

/** A URL refused before anything was sent to it; `problem` completes "input URL … " or "callbackUrl: …". */
export class OutboundRefused extends Error {
  constructor(readonly problem: string) {
    super(problem);
    this.name = 'OutboundRefused';
  }
}

/**
 * IPv6 forms that carry an IPv4 address, and the byte where it starts: they are judged by that IPv4 address,
 * since the host (or a translator on the way) ends up talking to it.
 */
const EMBEDDED_V4: Array<[string, [ipaddr.IPv6, number], number]> = [
  ['IPv4-mapped', ipaddr.IPv6.parseCIDR('::ffff:0:0/96'), 12],
  ['IPv4-translated', ipaddr.IPv6.parseCIDR('::ffff:0:0:0/96'), 12],
  ['IPv4-compatible', ipaddr.IPv6.parseCIDR('::/96'), 12],
  ['NAT64', ipaddr.IPv6.parseCIDR('64:ff9b::/96'), 12],
  ['6to4', ipaddr.IPv6.parseCIDR('2002::/16'), 2],
];

/**
 * The special-purpose range an address is in ('loopback', 'private', 'IPv4-mapped loopback', …), or 'unicast' for
 * an ordinary public address. Anything ipaddr.js knows as special (RFC 6890 registries) counts as not public,
 * e.g. 64:ff9b:1::/48, Teredo, documentation and benchmarking ranges.
 */
export function addressRange(address: string): string {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  } catch {
    return 'invalid';
  }
  if (ip.kind() === 'ipv4') return ip.range();
  const v6 = ip as ipaddr.IPv6;
  const range = v6.range();
  if (range === 'unspecified' || range === 'loopback') return range;
  for (const [name, cidr, at] of EMBEDDED_V4) {
    if (!v6.match(cidr)) continue;
    const inner = new ipaddr.IPv4(v6.toByteArray().slice(at, at + 4)).range();
    return inner === 'unicast' ? 'unicast' : `${name} ${inner}`;
  }
  return range;
}

export const isPublicAddress = (address: string) => addressRange(address) === 'unicast';

async function defaultResolve(host: string): Promise<ResolvedAddress[]> {
  return systemLookup(host, { all: true, verbatim: true });
}

/** Resolver answers meaning "no such name" (a user's mistake), as opposed to a resolver that is down. */
const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

/** Absolute http(s) without credentials, or why not. */
function parse(raw: string | URL): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefused(OUTBOUND_MESSAGES.notAbsolute);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutboundRefused(OUTBOUND_MESSAGES.notHttp);
  if (url.username || url.password) throw new OutboundRefused(OUTBOUND_MESSAGES.credentials);
  return url;
}

export interface VettedTarget {
  url: URL;
  /** Host name (or IP literal, without brackets) as the URL gives it: for Host, SNI and the certificate check. */
  host: string;
  port: number;
  /** The address that was checked and is the only one connected to. */
  address: ResolvedAddress;
}

/**
 * Parses a URL and resolves its host once; refused when any of its addresses is not public (unless the policy
 * allows private targets). The WHATWG parser has already turned 2130706433, 0177.0.0.1, 0x7f.1 or 127.1 into 127.0.0.1.
 */
export async function vetUrl(raw: string | URL, policy: OutboundPolicy): Promise<VettedTarget> {
  const url = parse(raw);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  let addresses: ResolvedAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await (policy.resolve ?? defaultResolve)(host);
    } catch (error) {
      if (NO_SUCH_NAME.has((error as NodeJS.ErrnoException).code ?? ''))
        throw new OutboundRefused(OUTBOUND_MESSAGES.unknownHost(host));
      throw error;
    }
  }
  if (addresses.length === 0) throw new OutboundRefused(OUTBOUND_MESSAGES.unknownHost(host));
  // Every address must pass, since which one a later connection would pick is not ours to say.
  if (!policy.allowPrivate && addresses.some((a) => !isPublicAddress(a.address) && !policy.allow?.(a.address, port))) {
    throw new OutboundRefused(OUTBOUND_MESSAGES.privateHost);
  }
  return { url, host, port, address: addresses[0]! };
}

/** Why a URL would be refused now (syntax, resolution, address), or null; for checks at submit time. */
export async function outboundUrlProblem(raw: string, policy: OutboundPolicy): Promise<string | null> {
  try {
    await vetUrl(raw, policy);
    return null;
  } catch (error) {
    if (error instanceof OutboundRefused) return error.problem;
    // A resolver that is down right now says nothing against the URL; delivery checks it again anyway.
    return null;
  }
}

export interface OutboundRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  signal: AbortSignal;
  /** Follow up to OUTBOUND.maxRedirects redirects, each target vetted again; otherwise a 3xx is the answer. */
  followRedirects?: boolean;
}

export interface OutboundResponse {
  status: number;
  ok: boolean;
  /** The URL that answered (after redirects). */
  url: string;
  headers: IncomingHttpHeaders;
  body: AsyncIterable<Buffer>;
  /** Drops the connection without reading the rest of the body. */
  close(): void;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** One request to a vetted target; the connection goes to target.address whatever the name resolves to by now. */
function send(
  target: VettedTarget,
  method: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [target.address]);
    else callback(null, target.address.address, target.address.family);
  };
  return new Promise((resolve, reject) => {
    const request = (target.url.protocol === 'https:' ? httpsRequest : httpRequest)(
      {
        host: target.host,
        port: target.port,
        path: `${target.url.pathname}${target.url.search}`,
        method,
        headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinned,
        // No pooled sockets: each request connects to the address vetted for it.
        agent: false,
        signal,
      },
      (response) => {
        const abort = () =>
          response.destroy(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
        signal.addEventListener('abort', abort, { once: true });
        response.once('close', () => signal.removeEventListener('abort', abort));
        // A reader sees errors through its iterator; one that has not started reading must not crash the process.
        response.on('error', () => {});
        resolve(response);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * Sends a request to a user's URL through the guard; OutboundRefused when a target (or redirect target) is not allowed.
 */
export async function outboundFetch(
  raw: string,
  r: OutboundRequest,
  policy: OutboundPolicy,
): Promise<OutboundResponse> {
  let url = raw;
  let method: string = r.method ?? 'GET';
  let body = r.body;
  for (let hop = 0; ; hop++) {
    let target: VettedTarget;
    try {
      target = await vetUrl(url, policy);
    } catch (error) {
      if (hop > 0 && error instanceof OutboundRefused)
        throw new OutboundRefused(OUTBOUND_MESSAGES.redirectTo(url, error.problem));
      throw error;
    }
    r.signal.throwIfAborted();
    const response = await send(target, method, r.headers ?? {}, body, r.signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (!r.followRedirects || !REDIRECTS.has(status) || !location) {
      return {
        status,
        ok: status >= 200 && status < 300,
        url: target.url.href,
        headers: response.headers,
        body: response,
        close: () => response.destroy(),
      };
    }
    response.destroy();
    if (hop >= OUTBOUND.maxRedirects) throw new OutboundRefused(OUTBOUND_MESSAGES.tooManyRedirects);
    try {
      url = new URL(location, target.url).href;
    } catch {
      throw new OutboundRefused(OUTBOUND_MESSAGES.redirectTo(location, OUTBOUND_MESSAGES.notAbsolute));
    }
    // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
    if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
    }
  }
}
