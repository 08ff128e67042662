// Ends a connection after an answer that refused the request's body (413) without resetting it.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Context } from 'hono';

/**
 * How long a closing connection keeps reading and dropping what the client still sends. A client that got
 * the answer and our FIN stops sending at once; this only bounds one that ignores both.
 */
const LINGER_MS = 5_000;

const lingering = new WeakSet<Socket>();

/**
 * Closing a socket while the client's unread body is still arriving makes the kernel answer with a reset,
 * and a client busy uploading may then lose the answer it was sent. So, when Node's HTTP server closes
 * this socket after the answer (it calls destroySoon because of `Connection: close`), send FIN, keep
 * reading and dropping the body until the client closes its side too, and only then (or after LINGER_MS)
 * release the socket.
 */
function lingerOnClose(incoming: IncomingMessage): void {
  const socket = incoming.socket;
  if (lingering.has(socket)) return;
  lingering.add(socket);
  let closing = false;
  socket.destroySoon = function destroyAfterLinger(this: Socket) {
    if (closing) return;
    closing = true;
    if (this.writable) this.end();
    const release = () => {
      if (this.writableFinished && this.readableEnded) this.destroy();
    };
    this.once('finish', release);
    this.once('end', release);
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
    // Nobody reads the refused body: whoever held it (the request's web stream) would pause the request,
    // and with it the socket, before the client's FIN arrives. Drop it instead, and read on.
    incoming.removeAllListeners('data');
    incoming.on('data', () => {});
    incoming.resume();
    this.resume();
    release();
  };
}

/** Announces `Connection: close` on this answer and, on a real Node connection, closes it gracefully after it. */
export function closeConnectionAfterAnswer(c: Context): void {
  c.res.headers.set('Connection', 'close');
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming?.socket) lingerOnClose(incoming);
}
