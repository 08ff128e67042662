// The video screen shared by five pages (SPEC.md §2): image, text or character to video, video translation, lip sync.
import { SAMPLE_MODELS, TEXT_TO_VIDEO_OPTIONS, TASK_LIMITS, type Feature } from '../../lib/product-rules';
import type { VideoType } from '../../lib/site/products';
import type { FeatureMap } from '../../lib/site/features';
import { playgroundApi, type UploadedMedia } from './api';
import CostBar from './CostBar';
import { useDraft } from './draft';
import DropZone from './DropZone';
import InputProblem from './InputProblem';
import LanguageOptions from './LanguageOptions';
import { costOf, perSecondText, priceTag } from './pricing';
import { useFeatures } from './useFeatures';
import SegmentedChoice from './SegmentedChoice';
import AdvancedSettings from './AdvancedSettings';
import { settingsFor, type RunSettings } from './run-settings';
import TaskScreenLayout from './TaskScreenLayout';
import { useTaskForm } from './useTaskForm';
import { promptProblem } from './validate';
import VideoOptions, { optionKey } from './VideoOptions';
import Field from '../shared/Field';
import styles from './playground.module.css';

const LANGUAGES = ['en-US', 'en-GB', 'es', 'fr', 'de', 'it', 'pt', 'zh', 'ja'];
const HISTORY: Record<VideoType, readonly Feature[]> = {
  image: ['image-to-video'],
  text: ['text-to-video'],
  character: ['character-to-video', 'talking-image'],
  translate: ['video-translate-lip-sync', 'video-translate-voice-only'],
  lipSync: ['talking-face'],
};
const TITLES: Record<VideoType, string> = {
  image: 'Image to video',
  text: 'Text to video',
  character: 'Character to video',
  translate: 'Video translation',
  lipSync: 'Lip sync',
};
const DRIVES = [
  { value: 'script', label: 'A script' },
  { value: 'audio', label: 'Your audio' },
] as const;
/** The two translation modes, each with its rate here (free where this server runs it without a model). */
const translateModes = (features: FeatureMap | null) =>
  [true, false].map((lip) => ({
    value: lip,
    label: (
      <>
        {lip ? 'Lip sync' : 'Voice only'}{' '}
        <span className={styles.price}>
          {priceTag(
            costOf(lip ? 'video-translate-lip-sync' : 'video-translate-voice-only', { seconds: 1 }, features),
            '/s',
          )}
        </span>
      </>
    ),
  }));

interface Draft {
  prompt: string;
  option: string;
  image: UploadedMedia | null;
  video: UploadedMedia | null;
  audio: UploadedMedia | null;
  modelId: string;
  drive: 'script' | 'audio';
  source: string;
  target: string;
  lipSync: boolean;
  settings: RunSettings;
}

const initial: Draft = {
  prompt: '',
  option: optionKey(TEXT_TO_VIDEO_OPTIONS[1]),
  image: null,
  video: null,
  audio: null,
  modelId: SAMPLE_MODELS[0].id,
  drive: 'script',
  source: '',
  target: 'es',
  lipSync: true,
  settings: {},
};

/** The feature a submit runs, from the page's type and its choices. */
export function videoFeature(type: VideoType, d: Pick<Draft, 'drive' | 'lipSync'>): Feature {
  if (type === 'image') return 'image-to-video';
  if (type === 'text') return 'text-to-video';
  if (type === 'character') return d.drive === 'audio' ? 'talking-image' : 'character-to-video';
  if (type === 'translate') return d.lipSync ? 'video-translate-lip-sync' : 'video-translate-voice-only';
  return 'talking-face';
}

export default function VideoScreen({ type }: { type: VideoType }) {
  // Uploaded media (signed URLs valid for a day) are part of the draft, so they survive a sign-in too.
  const [draft, update] = useDraft<Draft>(`video-${type}`, initial);
  const option = TEXT_TO_VIDEO_OPTIONS.find((o) => optionKey(o) === draft.option) ?? TEXT_TO_VIDEO_OPTIONS[1];
  const feature = videoFeature(type, draft);
  const { task, problem, clearProblem, unavailable, runIfValid, options, optionsKnown } = useTaskForm(
    type,
    feature,
    TITLES[type],
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
  const usesOptions = type === 'image' || type === 'text' || (type === 'character' && draft.drive === 'script');
  const usesPrompt = usesOptions;

  const findProblem = (): string | null => {
    if (usesPrompt) {
      const p = promptProblem(draft.prompt);
      if (p)
        return type === 'character'
          ? p.replace('describe what should happen in the video', 'write what the character says or does')
          : p;
    }
    if (type === 'image' && !draft.image) return 'Image: upload the picture to animate.';
    if ((type === 'translate' || type === 'lipSync') && !draft.video) return 'Video: upload the video first.';
    if ((type === 'lipSync' || (type === 'character' && draft.drive === 'audio')) && !draft.audio)
      return 'Audio: upload the speech to sync to.';
    if (type === 'translate' && draft.source && draft.source === draft.target)
      return 'Choose a target language different from the source.';
    return null;
  };

  const submit = () => {
    const portrait = draft.image?.url;
    const model = portrait ? undefined : draft.modelId;
    runIfValid(
      findProblem(),
      () => {
        if (type === 'translate')
          return playgroundApi.translate(draft.lipSync, {
            videoUrl: draft.video!.url,
            targetLanguage: draft.target,
            ...(draft.source ? { sourceLanguage: draft.source } : {}),
          });
        if (type === 'lipSync')
          return playgroundApi.talkingFace({ audioUrl: draft.audio!.url, videoUrl: draft.video!.url });
        if (type === 'character' && draft.drive === 'audio')
          return playgroundApi.talkingFace({
            audioUrl: draft.audio!.url,
            ...(portrait ? { imageUrl: portrait } : { modelId: model }),
          });
        return playgroundApi.animate({
          type,
          prompt: draft.prompt.trim(),
          resolution: option.resolution,
          duration: option.durationS,
          ...settings,
          ...(type === 'image' || (type === 'character' && portrait) ? { imageUrl: portrait } : {}),
          ...(type === 'character' && !portrait ? { modelId: model } : {}),
        });
      },
      { feature, option: draft.option },
    );
  };

  const set = (patch: Partial<Draft>) => {
    update(patch);
    clearProblem();
  };

  return (
    <TaskScreenLayout
      task={task}
      resultTitle={TITLES[type]}
      historyFeatures={HISTORY[type]}
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
      examples={{ screen: type, onTry: (inputs) => set(inputs as Partial<Draft>) }}
    >
      {type === 'character' && (
        <>
          <fieldset className={styles.voices}>
            <legend className={styles.label}>Character: a sample model or your portrait</legend>
            <div className={styles.models} role="radiogroup" aria-label="Sample models">
              {SAMPLE_MODELS.map((m) => (
                <label key={m.id} className={styles.model} title={m.desc}>
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
            screen={type}
          />
          <SegmentedChoice
            legend="Drive it with"
            name="drive"
            choices={DRIVES}
            value={draft.drive}
            onChange={(drive) => set({ drive })}
          />
        </>
      )}
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
      {type === 'translate' && (
        <>
          <div className={styles.row}>
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
      )}
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
