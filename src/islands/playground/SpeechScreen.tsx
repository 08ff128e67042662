// Text to Speech: text with a live character count and cost, voice picker with previews, Common or Pro, one audio out.
import { characterCount, TASK_LIMITS, voiceById, VOICE_MESSAGES, VOICES, voiceServed } from '../../lib/product-rules';
import { playgroundApi } from './api';
import { useClonedVoices } from './cloned-voices';
import CostBar from './CostBar';
import { useDraft } from './draft';
import InputProblem from './InputProblem';
import { speechCost, unitPriceText } from './pricing';
import { useFeatures } from './useFeatures';
import AdvancedSettings from './AdvancedSettings';
import { settingsFor, type RunSettings } from './run-settings';
import SegmentedChoice from './SegmentedChoice';
import TaskScreenLayout from './TaskScreenLayout';
import { useTaskForm } from './useTaskForm';
import { textProblem } from './validate';
import VoicePicker, { CLONE_PREFIX } from './VoicePicker';
import TextField from '../shared/TextField';
import styles from './playground.module.css';
import costStyles from './CostBar.module.css';

const SCREEN = 'speech';
const FEATURES = ['tts-common', 'tts-pro', 'tts-clone'] as const;
const QUALITIES = [
  { value: 'common', label: 'Common' },
  { value: 'pro', label: 'Pro' },
] as const;

export default function SpeechScreen() {
  const [draft, update] = useDraft(SCREEN, {
    text: '',
    voice: VOICES[0]!.id,
    quality: 'common',
    settings: {} as RunSettings,
  });
  const quality = draft.quality === 'pro' ? 'pro' : 'common';
  const cloneId = draft.voice.startsWith(CLONE_PREFIX) ? draft.voice.slice(CLONE_PREFIX.length) : null;
  const feature = cloneId ? 'tts-clone' : quality === 'pro' ? 'tts-pro' : 'tts-common';
  const { task, problem, clearProblem, unavailable, runIfValid, options, optionsKnown } = useTaskForm(
    SCREEN,
    feature,
    'Speech',
  );
  const settings = settingsFor(options, draft.settings);
  const clones = useClonedVoices();
  const features = useFeatures();
  const cost = speechCost(draft.text, quality, Boolean(cloneId), features);
  // The engine serving this run may speak only some languages (DreamAPI): the others are marked, and refused here.
  const state = cloneId ? undefined : features?.get(feature);
  const served =
    state?.languages && state.engine ? { engine: state.engineLabel ?? state.engine, languages: state.languages } : null;
  const voice = voiceById(draft.voice);
  const voiceProblem =
    served && voice && !voiceServed(voice, served.languages)
      ? VOICE_MESSAGES.pickProblem(voice, served.engine, served.languages)
      : null;

  const submit = () =>
    runIfValid(
      textProblem(draft.text) ?? voiceProblem,
      () =>
        cloneId
          ? playgroundApi.ttsClone({ cloneId, text: draft.text.trim() })
          : playgroundApi.tts({ text: draft.text.trim(), voiceId: draft.voice, quality, ...settings }),
      { voice: draft.voice, quality, characters: characterCount(draft.text) },
    );

  return (
    <TaskScreenLayout
      task={task}
      resultTitle="Generated speech"
      historyFeatures={FEATURES}
      screen={SCREEN}
      code={{ request: { kind: 'speech', text: draft.text, voice: draft.voice, quality, cloneId, settings }, cost }}
      examples={{ screen: 'speech', onTry: (inputs) => (update(inputs as Partial<typeof draft>), clearProblem()) }}
    >
      <TextField
        id="speech-text"
        label="Text"
        hintId="speech-count"
        hintLive
        hint={
          <>
            <span data-testid="char-count">{characterCount(draft.text)}</span> / {TASK_LIMITS.maxTextChars} characters
            {/* Its own line: the price changes with the features answer; a longer one must not push the form. */}
            <span className={costStyles.oneLine}>{unitPriceText(feature, features)}</span>
          </>
        }
        multiline
        rows={8}
        className={styles.textarea}
        value={draft.text}
        maxLength={TASK_LIMITS.maxTextChars}
        placeholder="Type or paste what the voice should say."
        onValue={(text) => {
          update({ text });
          clearProblem();
        }}
      />
      <VoicePicker
        value={draft.voice}
        onChange={(voice) => update({ voice })}
        clones={clones}
        screen={SCREEN}
        served={served}
      />
      <SegmentedChoice
        legend="Quality"
        name="speech-quality"
        choices={QUALITIES}
        value={quality}
        onChange={(q) => update({ quality: q })}
        disabled={Boolean(cloneId)}
      />
      <AdvancedSettings
        known={optionsKnown}
        options={options}
        value={draft.settings}
        onChange={(s) => update({ settings: s })}
        idPrefix="speech"
      />
      <CostBar
        cost={cost}
        feature={feature}
        label="Generate speech"
        busy={task.busy}
        blocked={unavailable}
        onSubmit={submit}
      />
      <InputProblem problem={problem} />
    </TaskScreenLayout>
  );
}
