// A task screen's two columns: the form card with View code under it, and beside it the runs (or examples before the
// first) and the history.
import { lazy, startTransition, Suspense, useEffect, useState, type ReactNode } from 'react';
import type { ExampleScreen, Feature } from '../../lib/product-rules';
import { $loggedIn } from '../../lib/stores/signed-in';
import { useHydratedStore } from '../shared/useHydratedStore';
import { useRenderedInBrowser } from '../shared/useRenderedInBrowser';
import TaskPanel from './TaskPanel';
import { trackAction } from './track';
import type { useTask } from './useTask';
import ViewCode, { type ViewCodeProps } from './ViewCode';
import styles from './playground.module.css';

// Examples show below the fold, before the first run: their code and list load after the screen, not with it.
const Examples = lazy(() => import('./examples/Examples'));
// The history is a signed-in person's: a visitor's page never loads its code.
const History = lazy(() => import('./History'));

interface Props {
  task: ReturnType<typeof useTask>;
  /** Names the result's player, e.g. "Generated speech". */
  resultTitle: string;
  historyFeatures: readonly Feature[];
  screen: string;
  /** The public API call of the current inputs, for View code. */
  code?: ViewCodeProps;
  /**
   * The screen's example outputs with "Try an example" (shown until the first run of this visit), and how the form
   * takes an example's inputs.
   */
  examples?: { screen: ExampleScreen; onTry: (inputs: Record<string, unknown>) => void };
  /** The form card's contents. */
  children: ReactNode;
}

/**
 * The lazy parts render only in the browser (the pre-rendered page shows neither), each in its own small component so
 * that switching them on after hydration re-renders that component, not the whole screen.
 */
function ExamplesSlot({ screen, examples }: { screen: string; examples: NonNullable<Props['examples']> }) {
  const inBrowser = useRenderedInBrowser();
  if (!inBrowser) return null;
  return (
    <Examples
      screen={examples.screen}
      onTry={(inputs, example) => {
        trackAction(screen, 'example', 'click', { example: example.id });
        examples.onTry(inputs);
      }}
    />
  );
}

function HistorySlot({ features, screen }: { features: readonly Feature[]; screen: string }) {
  const loggedIn = useHydratedStore($loggedIn, false);
  // Switched on in a transition: when someone signs in on the screen, the examples stay shown while the history's code
  // loads, instead of the shared boundary below hiding them until it came (a store update cannot wait like that).
  const [shown, setShown] = useState(false);
  useEffect(() => startTransition(() => setShown(loggedIn)), [loggedIn]);
  if (!shown) return null;
  return <History features={features} screen={screen} />;
}

export default function TaskScreenLayout({
  task,
  resultTitle,
  historyFeatures,
  screen,
  code,
  examples,
  children,
}: Props) {
  return (
    <div className={styles.layout}>
      <div className={`card ${styles.form}`}>
        {children}
        {code && <ViewCode {...code} />}
      </div>
      <div className={styles.side}>
        <TaskPanel task={task} title={resultTitle} />
        {/* One boundary for both: they show together once both have loaded, whichever came first, so the history never
            appears and is then pushed down by the examples (a layout shift). */}
        <Suspense fallback={null}>
          {task.runs.length === 0 && examples && <ExamplesSlot screen={screen} examples={examples} />}
          <HistorySlot features={historyFeatures} screen={screen} />
        </Suspense>
      </div>
    </div>
  );
}
