// A task screen's two columns: the form card with View code under it, and beside it the runs (or examples before the first) and the history.
import { lazy, Suspense, type ReactNode } from 'react';
import type { ExampleScreen, Feature } from '../../lib/spec';
import { useRenderedInBrowser } from '../shared/useRenderedInBrowser';
import History from './History';
import TaskPanel from './TaskPanel';
import { trackAction } from './track';
import type { useTask } from './useTask';
import ViewCode, { type ViewCodeProps } from './ViewCode';
import styles from './playground.module.css';

// Examples show below the fold, before the first run: their code and list load after the screen, not with it.
const Examples = lazy(() => import('./examples/Examples'));

interface Props {
  task: ReturnType<typeof useTask>;
  /** Names the result's player, e.g. "Generated speech". */
  resultTitle: string;
  historyFeatures: readonly Feature[];
  screen: string;
  /** The public API call of the current inputs, for View code. */
  code?: ViewCodeProps;
  /** The screen's example outputs with "Try an example" (shown until the first run of this visit), and how the form takes an example's inputs. */
  examples?: { screen: ExampleScreen; onTry: (inputs: Record<string, unknown>) => void };
  /** The form card's contents. */
  children: ReactNode;
}

export default function TaskScreenLayout({ task, resultTitle, historyFeatures, screen, code, examples, children }: Props) {
  const inBrowser = useRenderedInBrowser();
  return (
    <div className={styles.layout}>
      <div className={`card ${styles.form}`}>
        {children}
        {code && <ViewCode {...code} />}
      </div>
      <div className={styles.side}>
        <TaskPanel task={task} title={resultTitle} />
        {inBrowser && task.runs.length === 0 && examples && (
          <Suspense fallback={null}>
            <Examples
              screen={examples.screen}
              onTry={(inputs, example) => {
                trackAction(screen, 'example', 'click', { example: example.id });
                examples.onTry(inputs);
              }}
            />
          </Suspense>
        )}
        <History features={historyFeatures} screen={screen} />
      </div>
    </div>
  );
}
