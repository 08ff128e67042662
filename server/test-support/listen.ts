// Test-only: an app on a real Node connection (the Node adapter, as production serves it) on a free local port.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

export interface Listening {
  port: number;
  close(): Promise<void>;
}

/** Serves `fetch` on 127.0.0.1 at a free port; resolves once it listens. */
export async function listen(fetch: Parameters<typeof serve>[0]['fetch']): Promise<Listening> {
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
