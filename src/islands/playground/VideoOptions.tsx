// The §9 clip options (length × resolution) as radio buttons, each with its price in credits.
import { quote, TEXT_TO_VIDEO_OPTIONS } from '../../lib/spec';
import SegmentedChoice from './SegmentedChoice';
import styles from './playground.module.css';

export const optionKey = (o: { durationS: number; resolution: string }) => `${o.durationS}s-${o.resolution}`;

const CHOICES = TEXT_TO_VIDEO_OPTIONS.map((o) => ({
  value: optionKey(o),
  label: (
    <>
      {o.durationS}s · {o.resolution} <span className={styles.price}>{quote(o.itemId)} cr</span>
    </>
  ),
}));

export default function VideoOptions({ value, onChange }: { value: string; onChange: (key: string) => void }) {
  return <SegmentedChoice legend="Length and resolution" name="video-option" choices={CHOICES} value={value} onChange={onChange} />;
}
