// AI Clothes Changer: a model photo (or a sample model) plus upper, lower or one-piece garments → one image.
import { useState } from 'react';
import { playgroundApi, type UploadedMedia } from './api';
import CostBar from './CostBar';
import { useDraft } from './draft';
import DropZone from './DropZone';
import History from './History';
import { costOf } from './pricing';
import TaskPanel from './TaskPanel';
import { useFeatures, unavailableText } from './useFeatures';
import { useTask } from './useTask';
import styles from './playground.module.css';

const SCREEN = 'alClothesChanger';
const FEATURES = ['tryon-clothes'] as const;

interface Draft {
  model: UploadedMedia | null;
  mode: 'separates' | 'onePiece';
  upper: UploadedMedia | null;
  lower: UploadedMedia | null;
  onePiece: UploadedMedia | null;
}

export default function ClothesScreen() {
  const [draft, update] = useDraft<Draft>(SCREEN, { model: null, mode: 'separates', upper: null, lower: null, onePiece: null });
  const task = useTask(SCREEN);
  const features = useFeatures();
  const [shownProblem, setShownProblem] = useState<string | null>(null);
  const unavailable = unavailableText(features, 'tryon-clothes', 'The clothes changer');

  const submit = () => {
    const garments = draft.mode === 'onePiece' ? { onePieceUrl: draft.onePiece?.url } : { upperUrl: draft.upper?.url, lowerUrl: draft.lower?.url };
    const problem = !draft.model
      ? 'Model photo: upload a full-body photo of the person.'
      : !Object.values(garments).some(Boolean)
        ? 'Garments: upload at least one garment photo.'
        : null;
    setShownProblem(problem);
    if (problem) return;
    void task.run(() => playgroundApi.clothes({ modelImageUrl: draft.model!.url, ...garments }), { mode: draft.mode });
  };

  return (
    <div className={styles.layout}>
      <div className={`card ${styles.form}`}>
        <DropZone label="Model photo" kinds={['image']} value={draft.model} onChange={(model) => update({ model })} screen={SCREEN} />
        <fieldset className={styles.segmented}>
          <legend className={styles.label}>Garments</legend>
          {(['separates', 'onePiece'] as const).map((m) => (
            <label key={m}>
              <input type="radio" name="garment-mode" checked={draft.mode === m} onChange={() => update({ mode: m })} />
              <span>{m === 'separates' ? 'Upper and/or lower' : 'One-piece'}</span>
            </label>
          ))}
        </fieldset>
        {draft.mode === 'separates' ? (
          <>
            <DropZone label="Upper garment" kinds={['image']} value={draft.upper} onChange={(upper) => update({ upper })} screen={SCREEN} />
            <DropZone label="Lower garment" kinds={['image']} value={draft.lower} onChange={(lower) => update({ lower })} screen={SCREEN} />
          </>
        ) : (
          <DropZone label="One-piece garment" kinds={['image']} value={draft.onePiece} onChange={(onePiece) => update({ onePiece })} screen={SCREEN} />
        )}
        <CostBar cost={costOf('tryon-clothes', {})} label="Change clothes" busy={task.busy} blocked={unavailable} onSubmit={submit} />
        {shownProblem && (
          <p role="alert" className={styles.fieldError}>
            {shownProblem}
          </p>
        )}
      </div>
      <div className={styles.side}>
        <TaskPanel task={task} title="Outfit result" />
        <History features={FEATURES} screen={SCREEN} />
      </div>
    </div>
  );
}
