// Test file order: within each project, the files that start server processes or clusters go first. They take
// minutes where others take seconds; on a fresh clone (no timings cached) Vitest orders by file size, which put the
// longest of them last and made the run wait on them alone.
import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** What a test file imports or calls when it starts whole processes of the product. */
const STARTS_PROCESSES = /test-support\/(server-process|provider-resume)|cluster\/server-processes|node:child_process/;

function startsProcesses(file: string): boolean {
  try {
    return STARTS_PROCESSES.test(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}

export class ProcessFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const projects = [...new Set(sorted.map((spec) => spec.project.name))];
    const heavy = new Map(sorted.map((spec) => [spec, startsProcesses(spec.moduleId)]));
    // A stable sort: the project order and, inside each group, Vitest's own order (cached durations, else size) stay.
    return sorted.sort(
      (a, b) =>
        projects.indexOf(a.project.name) - projects.indexOf(b.project.name) ||
        Number(heavy.get(b)) - Number(heavy.get(a)),
    );
  }
}
