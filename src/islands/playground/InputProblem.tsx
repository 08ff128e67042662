// What to fix in a screen's input, announced as an alert below the submit button; nothing while there is none.
import styles from './playground.module.css';

export default function InputProblem({ problem }: { problem: string | null }) {
  if (!problem) return null;
  return (
    <p role="alert" className={styles.fieldError}>
      {problem}
    </p>
  );
}
