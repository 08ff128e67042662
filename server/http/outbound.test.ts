// The outbound guard against real local listeners: every spelling of this machine refused, redirects and rebinding
// held.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EngineInputError } from '../engines/types';
import type { MediaService } from '../media';
import { inputReader } from '../tasks/input-media';
import { OUTBOUND, OUTBOUND_MESSAGES } from '../../src/lib/product-rules';
import { silentWav } from '../test-support/wav';
import {
  OutboundRefused,
  addressRange,
  isPublicAddress,
  outboundFetch,
  outboundUrlProblem,
  type OutboundPolicy,
} from './outbound';

interface Listener {
  server: Server;
  port: number;
  hits: Array<{ url: string; host: string | undefined; headers: IncomingHttpHeaders }>;
}

/** A real HTTP listener recording every request; `answer` decides the reply. */
async function listen(
  host: string,
  answer: (url: string) => { status: number; headers?: Record<string, string>; body?: Buffer | string },
  port = 0,
): Promise<Listener> {
  const hits: Listener['hits'] = [];
  const server = createServer((req, res) => {
    hits.push({ url: req.url ?? '', host: req.headers.host, headers: req.headers });
    const a = answer(req.url ?? '');
    res.writeHead(a.status, a.headers).end(a.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return { server, port: (server.address() as AddressInfo).port, hits };
}

const opened: Server[] = [];
async function listener(...args: Parameters<typeof listen>) {
  const l = await listen(...args);
  opened.push(l.server);
  return l;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => new Promise((r) => s.close(r))));
});

const signal = () => AbortSignal.timeout(5000);
const publicOnly: OutboundPolicy = { allowPrivate: false };
const wav = silentWav(1, 8000);

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundRefused);
  return (error as OutboundRefused).problem;
}

describe('address classification', () => {
  it('calls special-purpose addresses not public, in IPv4 and every IPv6 form that embeds one', () => {
    const special = [
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.254',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '224.0.0.1',
      '239.255.255.250',
      '0.0.0.0',
      '0.1.2.3',
      '127.0.0.1',
      '127.255.0.9',
      '255.255.255.255',
      '240.0.0.1',
      '192.0.2.1',
      '::',
      '::1',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      'fec0::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '::127.0.0.1',
      '::a00:1',
      '64:ff9b::7f00:1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::1',
      '2002:7f00:1::',
      '2002:a00:1::1',
      '2002:c0a8:101::1',
      '2001::1',
      '2001:db8::1',
      'not an address',
    ];
    for (const address of special)
      expect({ address, range: addressRange(address) }).not.toEqual({ address, range: 'unicast' });
    expect(addressRange('::ffff:127.0.0.1')).toBe('IPv4-mapped loopback');
    expect(addressRange('2002:7f00:1::')).toBe('6to4 loopback');
    expect(addressRange('64:ff9b::a9fe:a9fe')).toBe('NAT64 linkLocal');
  });

  it('calls ordinary public addresses public, embedded ones included (DNS64 networks hand out 64:ff9b::/96)', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ]) {
      expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: true });
    }
  });
});

describe('outboundFetch with private targets refused', () => {
  let target: Listener;
  beforeAll(async () => {
    target = await listen('127.0.0.1', () => ({ status: 200, body: wav }));
  });
  afterAll(async () => {
    await new Promise((r) => target.server.close(r));
  });

  it('never reaches a listener on 127.0.0.1, however its address is spelt', async () => {
    const P = target.port;
    const forms = [
      `http://127.0.0.1:${P}/x`,
      `http://localhost:${P}/x`,
      `http://${hostname()}:${P}/x`,
      `http://[::ffff:127.0.0.1]:${P}/x`,
      `http://[::ffff:7f00:1]:${P}/x`,
      `http://[::127.0.0.1]:${P}/x`,
      `http://[64:ff9b::7f00:1]:${P}/x`,
      `http://2130706433:${P}/x`,
      `http://0177.0.0.1:${P}/x`,
      `http://0x7f000001:${P}/x`,
      `http://0x7f.0.0.1:${P}/x`,
      `http://127.1:${P}/x`,
      `http://[::1]:${P}/x`,
      `http://0.0.0.0:${P}/x`,
    ];
    for (const url of forms) {
      expect({ url, problem: await refusal(outboundFetch(url, { signal: signal() }, publicOnly)) }).toEqual({
        url,
        problem: OUTBOUND_MESSAGES.privateHost,
      });
      expect({ url, problem: await outboundUrlProblem(url, publicOnly) }).toEqual({
        url,
        problem: OUTBOUND_MESSAGES.privateHost,
      });
    }
    expect(target.hits).toHaveLength(0);
    // The listener is really there: with private targets allowed the same request gets through.
    const res = await outboundFetch(`http://127.0.0.1:${P}/x`, { signal: signal() }, { allowPrivate: true });
    res.close();
    expect(res.status).toBe(200);
    expect(target.hits).toHaveLength(1);
    target.hits.length = 0;
  });

  it('refuses other schemes, credentials and names that do not exist before sending anything', async () => {
    expect(await refusal(outboundFetch('file:///etc/passwd', { signal: signal() }, publicOnly))).toBe(
      OUTBOUND_MESSAGES.notHttp,
    );
    expect(await refusal(outboundFetch('/relative', { signal: signal() }, publicOnly))).toBe(
      OUTBOUND_MESSAGES.notAbsolute,
    );
    expect(
      await refusal(
        outboundFetch(`http://u:p@127.0.0.1:${target.port}/`, { signal: signal() }, { allowPrivate: true }),
      ),
    ).toBe(OUTBOUND_MESSAGES.credentials);
    expect(await refusal(outboundFetch('http://no-such-host.invalid/', { signal: signal() }, publicOnly))).toBe(
      OUTBOUND_MESSAGES.unknownHost('no-such-host.invalid'),
    );
    expect(target.hits).toHaveLength(0);
  });

  it('refuses a name when any one of its addresses is private', async () => {
    const resolve = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    expect(
      await refusal(
        outboundFetch(`http://mixed.example:${target.port}/`, { signal: signal() }, { allowPrivate: false, resolve }),
      ),
    ).toBe(OUTBOUND_MESSAGES.privateHost);
    expect(target.hits).toHaveLength(0);
  });
});

describe('redirects', () => {
  it('checks every hop: a redirect from an allowed listener to 127.0.0.1 is refused and never followed', async () => {
    const forbidden = await listener('127.0.0.1', () => ({ status: 200, body: wav }));
    const start = await listener('127.0.0.1', () => ({
      status: 302,
      headers: { location: `http://127.0.0.1:${forbidden.port}/` },
    }));
    // Only the first listener is let through, as a public host would be.
    const policy: OutboundPolicy = {
      allowPrivate: false,
      allow: (address, port) => address === '127.0.0.1' && port === start.port,
    };
    const problem = await refusal(
      outboundFetch(`http://127.0.0.1:${start.port}/in.wav`, { signal: signal(), followRedirects: true }, policy),
    );
    expect(problem).toBe(
      OUTBOUND_MESSAGES.redirectTo(`http://127.0.0.1:${forbidden.port}/`, OUTBOUND_MESSAGES.privateHost),
    );
    // An input download through the reader fails the same way, with an input error.
    const readInput = inputReader({
      media: {} as MediaService /* only consulted for this server's own links */,
      publicUrl: 'http://own.example',
      outbound: policy,
    });
    const error = await readInput(`http://127.0.0.1:${start.port}/in.wav`, ['audio'], signal()).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EngineInputError);
    expect((error as Error).message).toContain(OUTBOUND_MESSAGES.privateHost);
    expect(start.hits).toHaveLength(2);
    expect(forbidden.hits).toHaveLength(0);
  });

  it('follows redirects between allowed hosts, up to the limit', async () => {
    const end = await listener('127.0.0.1', () => ({ status: 200, body: wav }));
    const hop = await listener('127.0.0.1', (url) => {
      const n = Number(url.slice(1));
      return { status: 302, headers: { location: n > 0 ? `/${n - 1}` : `http://127.0.0.1:${end.port}/done` } };
    });
    const policy: OutboundPolicy = {
      allowPrivate: false,
      allow: (address, port) => address === '127.0.0.1' && (port === hop.port || port === end.port),
    };
    const readInput = inputReader({
      media: {} as MediaService /* only consulted for this server's own links */,
      publicUrl: 'http://own.example',
      outbound: policy,
    });
    // /3 → /2 → /1 → /0 → end: four redirects.
    const media = await readInput(`http://127.0.0.1:${hop.port}/3`, ['audio'], signal());
    expect(media.mime).toBe('audio/wav');
    expect(media.data.equals(wav)).toBe(true);
    expect(end.hits.map((h) => h.url)).toEqual(['/done']);
    const tooMany = await refusal(
      outboundFetch(
        `http://127.0.0.1:${hop.port}/${OUTBOUND.maxRedirects + 1}`,
        { signal: signal(), followRedirects: true },
        policy,
      ),
    );
    expect(tooMany).toBe(OUTBOUND_MESSAGES.tooManyRedirects);
    expect(end.hits).toHaveLength(1);
  });

  it('answers the 3xx itself when redirects are not followed (webhook deliveries)', async () => {
    const forbidden = await listener('127.0.0.1', () => ({ status: 200 }));
    const start = await listener('127.0.0.1', () => ({
      status: 307,
      headers: { location: `http://127.0.0.1:${forbidden.port}/` },
    }));
    const res = await outboundFetch(
      `http://127.0.0.1:${start.port}/hook`,
      { method: 'POST', body: '{}', signal: signal() },
      { allowPrivate: false, allow: (_a, port) => port === start.port },
    );
    res.close();
    expect(res.status).toBe(307);
    expect(res.ok).toBe(false);
    expect(forbidden.hits).toHaveLength(0);
  });
});

describe('DNS rebinding', () => {
  it('connects to the address that was checked, never to what the name resolves to next', async () => {
    // The checked address is a listener on 127.0.0.2 that the policy lets through (standing in for a public host);
    // the name then "rebinds" to 127.0.0.1, where a trap listens on the same port.
    const good = await listener('127.0.0.2', () => ({ status: 200, body: wav }));
    const trap = await listener('127.0.0.1', () => ({ status: 200, body: wav }), good.port);
    let calls = 0;
    const resolve = async () => [{ address: calls++ === 0 ? '127.0.0.2' : '127.0.0.1', family: 4 }];
    const policy: OutboundPolicy = {
      allowPrivate: false,
      resolve,
      allow: (address, port) => address === '127.0.0.2' && port === good.port,
    };
    const readInput = inputReader({
      media: {} as MediaService /* only consulted for this server's own links */,
      publicUrl: 'http://own.example',
      outbound: policy,
    });
    const media = await readInput(`http://rebind.example:${good.port}/in.wav`, ['audio'], signal());
    expect(media.data.equals(wav)).toBe(true);
    expect(calls).toBe(1);
    expect(good.hits).toEqual([expect.objectContaining({ url: '/in.wav', host: `rebind.example:${good.port}` })]);
    expect(trap.hits).toHaveLength(0);
    // Asked again, the name now resolves to 127.0.0.1 and is refused before any connection.
    expect(
      await refusal(outboundFetch(`http://rebind.example:${good.port}/in.wav`, { signal: signal() }, policy)),
    ).toBe(OUTBOUND_MESSAGES.privateHost);
    expect(trap.hits).toHaveLength(0);
  });
});

describe('caps', () => {
  it('stops at the abort signal', async () => {
    const slow = await listener('127.0.0.1', () => ({ status: 200, body: wav }));
    slow.server.removeAllListeners('request');
    slow.server.on('request', (req) =>
      slow.hits.push({ url: req.url ?? '', host: req.headers.host, headers: req.headers }),
    );
    const controller = new AbortController();
    const pending = outboundFetch(
      `http://127.0.0.1:${slow.port}/`,
      { signal: controller.signal },
      { allowPrivate: true },
    );
    for (let i = 0; i < 200 && slow.hits.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow();
    slow.server.closeAllConnections();
  });
});
