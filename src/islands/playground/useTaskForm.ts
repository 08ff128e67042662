// A task screen's submit logic: its task, whether this server can run the feature, and the input problem on show.
import { useState } from 'react';
import type { Feature } from '../../lib/product-rules';
import type { TaskView } from './api';
import { useFeatures, unavailableText } from './useFeatures';
import { useTask } from './useTask';

/** `title` names the feature in the "not configured on this server" message. */
export function useTaskForm(screen: string, feature: Feature, title: string) {
  const task = useTask(screen);
  const features = useFeatures();
  const [problem, setProblem] = useState<string | null>(null);

  /** Shows `found` and stops there; with no problem, runs the task (the login modal first for a guest). */
  const runIfValid = (found: string | null, start: () => Promise<TaskView>, logmap?: Record<string, unknown>) => {
    setProblem(found);
    if (found) return;
    void task.run(start, logmap);
  };

  return {
    task,
    /** What to fix in the input, shown since the last submit; null when there is nothing to show. */
    problem,
    clearProblem: () => setProblem(null),
    /**
     * Why the submit is disabled: the feature has no engine here, or the runs in progress are at the per-user limit
     * (null when it can run).
     */
    unavailable: unavailableText(features, feature, title) ?? task.atLimit,
    runIfValid,
    /** Advanced settings the engine serving the feature honours (none while unknown). */
    options: features?.get(feature)?.options ?? [],
    /** Whether the features answer has come (the options above are then the engine's, not a stand-in). */
    optionsKnown: features !== null,
  };
}
