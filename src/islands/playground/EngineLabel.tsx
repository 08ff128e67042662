// Which engine made a result, as the server labels it ("preview engine (no AI model)", "ElevenLabs"): shown on every
// result and history item.
import type { TaskView } from './api';

/** Nothing for a task that names no engine; `compact` drops the "Made with" for tight rows such as the history list. */
export default function EngineLabel({
  task,
  compact = false,
}: {
  task: Pick<TaskView, 'engine' | 'engineLabel'>;
  compact?: boolean;
}) {
  const label = task.engineLabel || task.engine;
  if (!label) return null;
  return (
    <p className="muted" data-testid="engine-label" title="The engine that made this result">
      {compact ? label : `Made with ${label}`}
    </p>
  );
}
