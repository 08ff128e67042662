// A task screen's two columns: the form card, and beside it the task's progress or result and the screen's history.
import type { ReactNode } from 'react';
import type { Feature } from '../../lib/spec';
import History from './History';
import TaskPanel from './TaskPanel';
import type { useTask } from './useTask';
import styles from './playground.module.css';

interface Props {
  task: ReturnType<typeof useTask>;
  /** Names the result's player, e.g. "Generated speech". */
  resultTitle: string;
  historyFeatures: readonly Feature[];
  screen: string;
  /** The form card's contents. */
  children: ReactNode;
}

export default function TaskScreenLayout({ task, resultTitle, historyFeatures, screen, children }: Props) {
  return (
    <div className={styles.layout}>
      <div className={`card ${styles.form}`}>{children}</div>
      <div className={styles.side}>
        <TaskPanel task={task} title={resultTitle} />
        <History features={historyFeatures} screen={screen} />
      </div>
    </div>
  );
}
