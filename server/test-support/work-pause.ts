// Test-only: the work pause under an S3 outage: a bucket of the test's own and a pause that checks only when the test
// says (check()), both stopped after the test.
import { afterEach } from 'vitest';
import { startWorkPause, type WorkPauseOptions } from '../lifecycle/pause';
import { readinessChecks, type ReadinessDeps } from '../lifecycle/readiness';
import { createLifecycle } from '../lifecycle/state';
import { createLogger } from '../log';
import { startTestS3, type TestS3 } from './s3';

export function useManualWorkPause() {
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  });
  return {
    /** A test S3 serving `bucket`, closed after the test. */
    async s3(bucket: string): Promise<TestS3> {
      const s3 = await startTestS3(bucket);
      stops.push(() => s3.close());
      return s3;
    },
    /** The pause of a worker whose `queue` it stops and restarts after checking `deps`; its lifecycle says why. */
    pause(queue: WorkPauseOptions['queue'], deps: ReadinessDeps) {
      const lifecycle = createLifecycle();
      const pause = startWorkPause({
        lifecycle,
        queue,
        log: createLogger('silent'),
        // Never on its own within a test.
        intervalMs: 3_600_000,
        checks: readinessChecks(deps),
      });
      stops.push(() => pause.stop());
      return { lifecycle, pause };
    },
  };
}
