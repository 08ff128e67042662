// The outbound guard across hops: every redirect checked, the redirect limit, 3xx answered as they are for webhooks,
// and DNS rebinding held (the checked address is the one connected to).
import { describe, expect, it } from 'vitest';
import { EngineInputError } from '../engines/types';
import { OUTBOUND, OUTBOUND_MESSAGES } from '../../src/lib/product-rules';
import { outboundFetch, type OutboundPolicy } from './outbound';
import { inputReaderFor, refusal, signal, useListeners, wav } from './outbound.fixtures';

const listener = useListeners();

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
    const readInput = inputReaderFor(policy);
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
    const readInput = inputReaderFor(policy);
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
    const readInput = inputReaderFor(policy);
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
