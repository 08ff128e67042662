// AI Clothes Changer: a model photo (or a sample model) plus upper, lower or one-piece garments → one image.
import { playgroundApi, type UploadedMedia } from './api';
import CostBar from './CostBar';
import { useDraft } from './draft';
import DropZone from './DropZone';
import InputProblem from './InputProblem';
import { costOf } from './pricing';
import SegmentedChoice from './SegmentedChoice';
import TaskScreenLayout from './TaskScreenLayout';
import { useTaskForm } from './useTaskForm';

const SCREEN = 'alClothesChanger';
const FEATURES = ['tryon-clothes'] as const;
const MODES = [
  { value: 'separates', label: 'Upper and/or lower' },
  { value: 'onePiece', label: 'One-piece' },
] as const;

interface Draft {
  model: UploadedMedia | null;
  mode: 'separates' | 'onePiece';
  upper: UploadedMedia | null;
  lower: UploadedMedia | null;
  onePiece: UploadedMedia | null;
}

export default function ClothesScreen() {
  const [draft, update] = useDraft<Draft>(SCREEN, {
    model: null,
    mode: 'separates',
    upper: null,
    lower: null,
    onePiece: null,
  });
  const { task, problem, unavailable, runIfValid } = useTaskForm(SCREEN, 'tryon-clothes', 'The clothes changer');

  const garments =
    draft.mode === 'onePiece'
      ? { onePieceUrl: draft.onePiece?.url }
      : { upperUrl: draft.upper?.url, lowerUrl: draft.lower?.url };
  const submit = () => {
    const found = !draft.model
      ? 'Model photo: upload a full-body photo of the person.'
      : !Object.values(garments).some(Boolean)
        ? 'Garments: upload at least one garment photo.'
        : null;
    runIfValid(found, () => playgroundApi.clothes({ modelImageUrl: draft.model!.url, ...garments }), {
      mode: draft.mode,
    });
  };

  return (
    <TaskScreenLayout
      task={task}
      resultTitle="Outfit result"
      historyFeatures={FEATURES}
      screen={SCREEN}
      code={{ request: { kind: 'clothes', modelUrl: draft.model?.url, garments }, cost: costOf('tryon-clothes', {}) }}
      examples={{ screen: 'alClothesChanger', onTry: (inputs) => update(inputs as Partial<Draft>) }}
    >
      <DropZone
        label="Model photo"
        kinds={['image']}
        value={draft.model}
        onChange={(model) => update({ model })}
        screen={SCREEN}
      />
      <SegmentedChoice
        legend="Garments"
        name="garment-mode"
        choices={MODES}
        value={draft.mode}
        onChange={(mode) => update({ mode })}
      />
      {draft.mode === 'separates' ? (
        <>
          <DropZone
            label="Upper garment"
            kinds={['image']}
            value={draft.upper}
            onChange={(upper) => update({ upper })}
            screen={SCREEN}
          />
          <DropZone
            label="Lower garment"
            kinds={['image']}
            value={draft.lower}
            onChange={(lower) => update({ lower })}
            screen={SCREEN}
          />
        </>
      ) : (
        <DropZone
          label="One-piece garment"
          kinds={['image']}
          value={draft.onePiece}
          onChange={(onePiece) => update({ onePiece })}
          screen={SCREEN}
        />
      )}
      <CostBar
        cost={costOf('tryon-clothes', {})}
        label="Change clothes"
        busy={task.busy}
        blocked={unavailable}
        onSubmit={submit}
      />
      <InputProblem problem={problem} />
    </TaskScreenLayout>
  );
}
