// Text to Speech: text with a live character count and cost, voice picker with previews, Common or Pro, one audio out.
import { useState } from 'react';
import { featurePrice, priceItem, TASK_LIMITS, VOICES } from '../../lib/spec';
import { playgroundApi } from './api';
import { useClonedVoices } from './cloned-voices';
import CostBar from './CostBar';
import { useDraft } from './draft';
import History from './History';
import { characterCount, speechCost } from './pricing';
import TaskPanel from './TaskPanel';
import { useFeatures, unavailableText } from './useFeatures';
import { useTask } from './useTask';
import { textProblem } from './validate';
import VoicePicker, { CLONE_PREFIX } from './VoicePicker';
import styles from './playground.module.css';

const SCREEN = 'speech';
const FEATURES = ['tts-common', 'tts-pro', 'tts-clone'] as const;

export default function SpeechScreen() {
  const [draft, update] = useDraft(SCREEN, { text: '', voice: VOICES[0]!.id, quality: 'common' });
  const task = useTask(SCREEN);
  const features = useFeatures();
  const clones = useClonedVoices();
  const quality = draft.quality === 'pro' ? 'pro' : 'common';
  const cloneId = draft.voice.startsWith(CLONE_PREFIX) ? draft.voice.slice(CLONE_PREFIX.length) : null;
  const cost = speechCost(draft.text, quality, Boolean(cloneId));
  const problem = textProblem(draft.text);
  const feature = cloneId ? 'tts-clone' : quality === 'pro' ? 'tts-pro' : 'tts-common';

  const [shownProblem, setShownProblem] = useState<string | null>(null);
  const unavailable = unavailableText(features, feature, 'Speech');

  const submit = () => {
    setShownProblem(problem);
    if (problem) return;
    void task.run(
      () => (cloneId ? playgroundApi.ttsClone({ cloneId, text: draft.text.trim() }) : playgroundApi.tts({ text: draft.text.trim(), voiceId: draft.voice, quality })),
      { voice: draft.voice, quality, characters: characterCount(draft.text) },
    );
  };

  return (
    <div className={styles.layout}>
      <div className={`card ${styles.form}`}>
        <div className={styles.field}>
          <label className={styles.label} htmlFor="speech-text">
            Text
          </label>
          <textarea
            id="speech-text"
            className={styles.textarea}
            rows={8}
            value={draft.text}
            maxLength={TASK_LIMITS.maxTextChars}
            placeholder="Type or paste what the voice should say."
            onChange={(e) => {
              update({ text: e.target.value });
              setShownProblem(null);
            }}
            aria-describedby="speech-count"
          />
          <p id="speech-count" className={styles.hint} aria-live="polite">
            <span data-testid="char-count">{characterCount(draft.text)}</span> / {TASK_LIMITS.maxTextChars} characters · {priceItem(featurePrice(feature, {}).itemId)?.priceText}
          </p>
        </div>
        <VoicePicker value={draft.voice} onChange={(voice) => update({ voice })} clones={clones} screen={SCREEN} />
        <fieldset className={styles.segmented} disabled={Boolean(cloneId)}>
          <legend className={styles.label}>Quality</legend>
          {(['common', 'pro'] as const).map((q) => (
            <label key={q}>
              <input type="radio" name="speech-quality" value={q} checked={quality === q} onChange={() => update({ quality: q })} />
              <span>{q === 'common' ? 'Common' : 'Pro'}</span>
            </label>
          ))}
        </fieldset>
        <CostBar cost={cost} label="Generate speech" busy={task.busy} blocked={unavailable} onSubmit={submit} />
        {shownProblem && (
          <p role="alert" className={styles.fieldError}>
            {shownProblem}
          </p>
        )}
      </div>
      <div className={styles.side}>
        <TaskPanel task={task} title="Generated speech" />
        <History features={FEATURES} screen={SCREEN} />
      </div>
    </div>
  );
}
