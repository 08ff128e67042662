// Test-only: a TCP proxy in front of PostgreSQL or Redis whose cut() is an outage (every connection destroyed, new ones
// refused) and restore() its end.
import net from 'node:net';

export interface TcpProxy {
  /** Where clients connect instead of the real service. */
  port: number;
  /** The service's URL with host and port replaced by the proxy's. */
  url(serviceUrl: string): string;
  /** Destroys every open connection and refuses new ones until restore(). */
  cut(): void;
  restore(): void;
  /** Connections open now (tests check a client reconnected). */
  connections(): number;
  close(): Promise<void>;
}

/**
 * Listens on a free local port and pipes each connection to `target`. While cut, a connection is closed the moment
 * it is accepted: the client sees the connection reset, as when the server has gone (the port stays ours, so the
 * same address serves again after restore()).
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  let cut = false;
  const server = net.createServer((client) => {
    if (cut) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    open.add(client);
    open.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const destroyAll = () => {
    for (const socket of open) socket.resetAndDestroy();
    open.clear();
  };
  return {
    port,
    url(serviceUrl) {
      const url = new URL(serviceUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    cut() {
      cut = true;
      destroyAll();
    },
    restore() {
      cut = false;
    },
    connections: () => [...open].length / 2,
    close() {
      destroyAll();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
