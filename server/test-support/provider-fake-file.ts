// Test-only: one test file's provider fake: its media made once, the fake started before the file's tests and reset
// after each, and apps closed after each test.
import { afterAll, beforeAll } from 'vitest';
import { type LocalServer } from './provider-fakes';
import { useTestMedia, type MediaSpec } from './lavfi-media';
import { testApps, type TestAppOptions } from './task-apps';

export function useProviderFake<K extends string, F extends LocalServer>(
  mediaPrefix: string,
  specs: Record<K, MediaSpec>,
  start: (media: NoInfer<Record<K, string> & { dir: string }>) => Promise<F>,
  reset: (fake: F) => void,
) {
  const media = useTestMedia(mediaPrefix, specs);
  let fake!: F;
  beforeAll(async () => {
    fake = await start(media);
  });
  afterAll(() => fake.close());
  const openTestApp = testApps({ reset: () => reset(fake) });
  return {
    media,
    /** An app for the test, its task system started unless `o.start` says otherwise. */
    openApp: (o: TestAppOptions = {}) => openTestApp({ start: 'system', ...o }),
    /** The running fake (read it inside tests and hooks: it starts in beforeAll). */
    get fake() {
      return fake;
    },
  };
}
