// Shared by the DreamAPI, fal and ElevenLabs fixtures: a provider's fake on a local port whose `mode` says how its next
// requests behave, and the test file's fake with apps whose engine talks to it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenLocal, withMode, type LocalServer } from '../../test-support/provider-fakes';
import { type MediaSpec } from '../../test-support/lavfi-media';
import { useProviderFake } from '../../test-support/provider-fake-file';

/** A provider's fake: `mode` decides how its next requests behave; `calls` records what it received. */
export interface AdapterFake<M, C> extends LocalServer {
  mode: M;
  calls: C[];
}

/** Answers one request to a fake, told its parsed URL and the fake's own base URL (for the links it answers). */
export type FakeHandler = (req: IncomingMessage, res: ServerResponse, url: URL, base: string) => unknown;

/**
 * Serves `handle` on a local port; the running fake is `fields` with the server's and a `mode` kept in `state.mode`
 * (`onSwitch` runs on every switch). The server's are assigned onto `fields`, so getters there keep reading the state.
 */
export async function listenFake<F extends object, M>(
  handle: FakeHandler,
  fields: F,
  state: { mode: M },
  onSwitch?: () => void,
): Promise<F & LocalServer & { mode: M }> {
  const local = await listenLocal((req, res, base) => handle(req, res, new URL(req.url ?? '/', 'http://fake'), base));
  return withMode(Object.assign(fields, local), state, onSwitch);
}

/**
 * useProviderFake with `app`: an app whose engine talks to the fake, its settings `env(fake URL)` with the test's
 * `extra` on top. A fixture adds its own helpers onto the returned object (Object.assign, not a spread, so its `fake`
 * getter still reads the running fake).
 */
export function useAdapterFake<K extends string, F extends LocalServer>(o: {
  mediaPrefix: string;
  media: Record<K, MediaSpec>;
  start: (media: NoInfer<Record<K, string> & { dir: string }>) => Promise<F>;
  reset: (fake: F) => void;
  env: (fakeUrl: string) => Record<string, string>;
}) {
  const provider = useProviderFake(o.mediaPrefix, o.media, o.start, o.reset);
  return Object.assign(provider, {
    app: (extra: Record<string, string> = {}) => provider.openApp({ env: { ...o.env(provider.fake.url), ...extra } }),
  });
}
