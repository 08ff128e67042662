// The video screen shared by five pages (SPEC.md §2): image, text or character to video, video translation, lip sync.
import { TEXT_TO_VIDEO_OPTIONS, TASK_LIMITS } from '../../lib/product-rules';
import type { VideoType } from '../../lib/site/products';
import CharacterInputs from './CharacterInputs';
import CostBar from './CostBar';
import { useDraft } from './draft';
import DropZone from './DropZone';
import InputProblem from './InputProblem';
import { costOf, perSecondText } from './pricing';
import { useFeatures } from './useFeatures';
import AdvancedSettings from './AdvancedSettings';
import { settingsFor } from './run-settings';
import TaskScreenLayout from './TaskScreenLayout';
import TranslateInputs from './TranslateInputs';
import { useTaskForm } from './useTaskForm';
import {
  initialVideoDraft,
  startVideo,
  usesVideoOptions,
  VIDEO_HISTORY,
  VIDEO_TITLES,
  videoFeature,
  videoProblem,
  type VideoDraft,
} from './video-draft';
import VideoOptions, { optionKey } from './VideoOptions';
import Field from '../shared/Field';
import styles from './playground.module.css';

export { videoFeature };

export default function VideoScreen({ type }: { type: VideoType }) {
  // Uploaded media (signed URLs valid for a day) are part of the draft, so they survive a sign-in too.
  const [draft, update] = useDraft<VideoDraft>(`video-${type}`, initialVideoDraft);
  const option = TEXT_TO_VIDEO_OPTIONS.find((o) => optionKey(o) === draft.option) ?? TEXT_TO_VIDEO_OPTIONS[1];
  const feature = videoFeature(type, draft);
  const { task, problem, clearProblem, unavailable, runIfValid, options, optionsKnown } = useTaskForm(
    type,
    feature,
    VIDEO_TITLES[type],
  );
  const settings = settingsFor(options, draft.settings);
  // Per-second features are held on the upload's length: the video for translation, the audio otherwise.
  const seconds = type === 'translate' ? draft.video?.durationS : draft.audio?.durationS;
  const features = useFeatures();
  const cost = costOf(
    feature,
    { resolution: option.resolution, durationS: option.durationS, seconds: seconds ?? undefined },
    features,
  );
  const usesOptions = usesVideoOptions(type, draft);
  const usesPrompt = usesOptions;

  const submit = () => {
    runIfValid(videoProblem(type, draft), () => startVideo(type, draft, option, settings), {
      feature,
      option: draft.option,
    });
  };

  const set = (patch: Partial<VideoDraft>) => {
    update(patch);
    clearProblem();
  };

  return (
    <TaskScreenLayout
      task={task}
      resultTitle={VIDEO_TITLES[type]}
      historyFeatures={VIDEO_HISTORY[type]}
      screen={type}
      code={{
        request: {
          kind: 'video',
          type,
          input: {
            ...draft,
            imageUrl: draft.image?.url,
            videoUrl: draft.video?.url,
            audioUrl: draft.audio?.url,
            resolution: option.resolution,
            durationS: option.durationS,
            settings,
          },
        },
        cost,
        costHint: 'credits once the file is uploaded (its length sets the price)',
      }}
      examples={{ screen: type, onTry: (inputs) => set(inputs as Partial<VideoDraft>) }}
    >
      {type === 'character' && <CharacterInputs draft={draft} set={set} screen={type} />}
      {type === 'image' && (
        <DropZone
          label="Image"
          kinds={['image']}
          value={draft.image}
          onChange={(image) => set({ image })}
          screen={type}
        />
      )}
      {(type === 'translate' || type === 'lipSync') && (
        <DropZone
          label="Video"
          kinds={['video']}
          value={draft.video}
          onChange={(video) => set({ video })}
          screen={type}
        />
      )}
      {(type === 'lipSync' || (type === 'character' && draft.drive === 'audio')) && (
        <DropZone
          label="Audio"
          kinds={['audio']}
          value={draft.audio}
          onChange={(audio) => set({ audio })}
          screen={type}
        />
      )}
      {usesPrompt && (
        <Field
          id="video-prompt"
          label={type === 'character' ? 'Script' : 'Prompt'}
          hint={`${draft.prompt.trim().length} / ${TASK_LIMITS.maxPromptChars} characters`}
        >
          <textarea
            className={styles.textarea}
            rows={4}
            maxLength={TASK_LIMITS.maxPromptChars}
            value={draft.prompt}
            placeholder={
              type === 'character'
                ? 'What the character says'
                : type === 'image'
                  ? 'How the picture should move, e.g. "slow zoom in, leaves drifting"'
                  : 'Describe the scene, e.g. "a paper boat on a rainy street, close-up"'
            }
            onChange={(e) => set({ prompt: e.target.value })}
          />
        </Field>
      )}
      {usesOptions && (
        <VideoOptions feature={feature} features={features} value={draft.option} onChange={(o) => set({ option: o })} />
      )}
      {usesOptions && (
        <AdvancedSettings
          known={optionsKnown}
          options={options}
          value={draft.settings}
          onChange={(s) => set({ settings: s })}
          idPrefix={`video-${type}`}
        />
      )}
      {type === 'translate' && <TranslateInputs draft={draft} set={set} features={features} />}
      <CostBar
        cost={cost}
        feature={feature}
        costHint={`${perSecondText(costOf(feature, { seconds: 1 }, features))} of ${type === 'translate' ? 'video' : 'audio'}; upload it to see the total`}
        label="Generate video"
        busy={task.busy}
        blocked={unavailable}
        onSubmit={submit}
      />
      <InputProblem problem={problem} />
    </TaskScreenLayout>
  );
}
