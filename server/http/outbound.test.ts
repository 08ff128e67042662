// The outbound guard against real local listeners: every spelling of this machine refused, other schemes, credentials
// and unknown names refused, and the abort signal held; redirects and rebinding in outbound-redirects.test.ts.
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOUND_MESSAGES } from '../../src/lib/product-rules';
import { outboundFetch, outboundUrlProblem } from './outbound';
import { listen, publicOnly, refusal, signal, useListeners, wav, type Listener } from './outbound.fixtures';

const listener = useListeners();

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
