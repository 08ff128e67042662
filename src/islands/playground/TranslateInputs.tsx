// The video translation's inputs: the source and target languages, and lip sync or voice only, each with its rate.
import type { FeatureMap } from '../../lib/site/features';
import LanguageOptions from './LanguageOptions';
import { costOf, priceTag } from './pricing';
import SegmentedChoice from './SegmentedChoice';
import type { VideoDraft } from './video-draft';
import styles from './playground.module.css';
import choice from './SegmentedChoice.module.css';

const LANGUAGES = ['en-US', 'en-GB', 'es', 'fr', 'de', 'it', 'pt', 'zh', 'ja'];

/** The two translation modes, each with its rate here (free where this server runs it without a model). */
const translateModes = (features: FeatureMap | null) =>
  [true, false].map((lip) => ({
    value: lip,
    label: (
      <>
        {lip ? 'Lip sync' : 'Voice only'}{' '}
        <span className={choice.price}>
          {priceTag(
            costOf(lip ? 'video-translate-lip-sync' : 'video-translate-voice-only', { seconds: 1 }, features),
            '/s',
          )}
        </span>
      </>
    ),
  }));

export default function TranslateInputs({
  draft,
  set,
  features,
}: {
  draft: Pick<VideoDraft, 'source' | 'target' | 'lipSync'>;
  set: (patch: Partial<VideoDraft>) => void;
  features: FeatureMap | null;
}) {
  return (
    <>
      <div className="cluster">
        <label className={styles.inline}>
          From{' '}
          <select value={draft.source} onChange={(e) => set({ source: e.target.value })}>
            <option value="">Detect automatically</option>
            <LanguageOptions codes={LANGUAGES} />
          </select>
        </label>
        <label className={styles.inline}>
          To{' '}
          <select value={draft.target} onChange={(e) => set({ target: e.target.value })}>
            <LanguageOptions codes={LANGUAGES} />
          </select>
        </label>
      </div>
      <SegmentedChoice
        legend="Mode"
        name="translate-mode"
        choices={translateModes(features)}
        value={draft.lipSync}
        onChange={(lipSync) => set({ lipSync })}
      />
    </>
  );
}
