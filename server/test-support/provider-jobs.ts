// Test-only: ctx.providerJobs kept in memory, for engine tests that run an engine without the task service.
import type { ProviderJobs } from '../engines';

/** Records by name; `earlier` answers what was recorded (as an earlier attempt would have left it). */
export function memoryProviderJobs(
  seed: Record<string, unknown> = {},
): ProviderJobs & { recorded: Map<string, unknown> } {
  const recorded = new Map<string, unknown>(Object.entries(seed));
  return {
    recorded,
    async record(name, ref) {
      recorded.set(name, JSON.parse(JSON.stringify(ref)) as unknown);
    },
    async earlier(name) {
      return recorded.get(name) ?? null;
    },
  };
}
