// The character video's inputs: a sample model or an uploaded portrait, and whether a script or audio drives it.
import { SAMPLE_MODELS } from '../../lib/product-rules';
import DropZone from './DropZone';
import SegmentedChoice from './SegmentedChoice';
import type { VideoDraft } from './video-draft';
import styles from './playground.module.css';
import models from './CharacterInputs.module.css';

const DRIVES = [
  { value: 'script', label: 'A script' },
  { value: 'audio', label: 'Your audio' },
] as const;

export default function CharacterInputs({
  draft,
  set,
  screen,
}: {
  draft: Pick<VideoDraft, 'image' | 'modelId' | 'drive'>;
  set: (patch: Partial<VideoDraft>) => void;
  screen: string;
}) {
  return (
    <>
      <fieldset className={styles.voices}>
        <legend className="field-label">Character: a sample model or your portrait</legend>
        <div className={`grid ${models.models}`} role="radiogroup" aria-label="Sample models">
          {SAMPLE_MODELS.map((m) => (
            <label key={m.id} className={models.model} title={m.desc}>
              <input
                type="radio"
                name="model"
                value={m.id}
                checked={!draft.image && draft.modelId === m.id}
                onChange={() => set({ modelId: m.id, image: null })}
              />
              <img src={m.src} alt="" width={64} height={64} />
              {m.name}
            </label>
          ))}
        </div>
      </fieldset>
      <DropZone
        label="Or upload a portrait"
        kinds={['image']}
        value={draft.image}
        onChange={(image) => set({ image })}
        screen={screen}
      />
      <SegmentedChoice
        legend="Drive it with"
        name="drive"
        choices={DRIVES}
        value={draft.drive}
        onChange={(drive) => set({ drive })}
      />
    </>
  );
}
