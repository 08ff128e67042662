// The request being answered, for whatever runs on its behalf: log lines and error answers read its id from here.
import { AsyncLocalStorage } from 'node:async_hooks';

const store = new AsyncLocalStorage<string>();

/** Runs `fn` (and everything it starts) as part of the request `id`. */
export function withRequestId<T>(id: string, fn: () => T): T {
  return store.run(id, fn);
}

/** The id of the request this code runs for; undefined outside a request (workers, start-up). */
export function currentRequestId(): string | undefined {
  return store.getStore();
}
