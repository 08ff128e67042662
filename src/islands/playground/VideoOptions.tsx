// The §9 clip options (length × resolution) as radio buttons, each with its price in credits.
import { quote, TEXT_TO_VIDEO_OPTIONS } from '../../lib/spec';
import styles from './playground.module.css';

export const optionKey = (o: { durationS: number; resolution: string }) => `${o.durationS}s-${o.resolution}`;

export default function VideoOptions({ value, onChange }: { value: string; onChange: (key: string) => void }) {
  return (
    <fieldset className={styles.segmented}>
      <legend className={styles.label}>Length and resolution</legend>
      {TEXT_TO_VIDEO_OPTIONS.map((o) => (
        <label key={o.itemId}>
          <input type="radio" name="video-option" value={optionKey(o)} checked={value === optionKey(o)} onChange={() => onChange(optionKey(o))} />
          <span>
            {o.durationS}s · {o.resolution} <span className={styles.price}>{quote(o.itemId)} cr</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
