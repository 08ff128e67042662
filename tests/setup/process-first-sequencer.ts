// Test file order: the files that start server processes or clusters go first, whatever their project. They take
// minutes where others take seconds; on a fresh clone (no timings cached) Vitest orders by project name, then file
// size, which started the longest (the cluster outage run, 200 s) after six minutes and made the run wait on it alone.
import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** What a test file imports when it runs a cluster of built servers beside PostgreSQL and Redis: the longest. */
const STARTS_CLUSTER = /cluster\.fixtures'|server-processes'/;
/** What a test file imports or calls when it starts processes of the product. */
const STARTS_PROCESSES = /test-support\/(server-process|provider-resume)|node:child_process/;

/** 2 for a cluster, 1 for other processes, 0 for a file that runs in its worker alone. */
function weight(file: string): number {
  try {
    const text = readFileSync(file, 'utf8');
    return STARTS_CLUSTER.test(text) ? 2 : STARTS_PROCESSES.test(text) ? 1 : 0;
  } catch {
    return 0;
  }
}

export class ProcessFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const weights = new Map(sorted.map((spec) => [spec, weight(spec.moduleId)]));
    // A stable sort: inside each weight, Vitest's own order (project, then cached durations, else size) stays.
    return sorted.sort((a, b) => weights.get(b)! - weights.get(a)!);
  }
}
