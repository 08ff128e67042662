// Dialogue: speakers each with a voice, lines to add, remove and reorder; the whole conversation becomes one audio.
import { characterCount, TASK_LIMITS, VOICES } from '../../lib/product-rules';
import { playgroundApi } from './api';
import CostBar from './CostBar';
import { cleanDialogue, DIALOGUE_DRAFT_KEY, dialogueBody, initialDialogue, type DialogueDraft } from './dialogue-draft';
import { useDraft } from './draft';
import InputProblem from './InputProblem';
import { dialogueCost } from './pricing';
import { useFeatures } from './useFeatures';
import AdvancedSettings from './AdvancedSettings';
import { settingsFor, type RunSettings } from './run-settings';
import TaskScreenLayout from './TaskScreenLayout';
import { useTaskForm } from './useTaskForm';
import { dialogueProblem } from './validate';
import VoiceSelect from './VoiceSelect';
import Field from '../shared/Field';
import styles from './playground.module.css';
import dialogue from './dialogue.module.css';

const SCREEN = 'dialogue';
const FEATURES = ['dialogue'] as const;

export default function DialogueScreen() {
  const [raw, update] = useDraft<DialogueDraft>(DIALOGUE_DRAFT_KEY, initialDialogue());
  const draft = cleanDialogue(raw);
  // The advanced settings keep a draft of their own: the script screen writes the dialogue draft without them.
  const [extra, updateExtra] = useDraft('dialogue-settings', { settings: {} as RunSettings });
  const { task, problem, clearProblem, unavailable, runIfValid, options, optionsKnown } = useTaskForm(
    SCREEN,
    'dialogue',
    'Dialogue',
  );
  const settings = settingsFor(options, extra.settings);
  const body = dialogueBody(draft);
  const features = useFeatures();
  const cost = dialogueCost(body.lines, features);

  const setLines = (lines: DialogueDraft['lines']) => {
    update({ lines });
    clearProblem();
  };
  const move = (i: number, by: -1 | 1) => {
    const lines = [...draft.lines];
    [lines[i], lines[i + by]] = [lines[i + by]!, lines[i]!];
    setLines(lines);
  };
  const renameSpeaker = (i: number, name: string) => {
    const old = draft.speakers[i]!.name;
    update({
      speakers: draft.speakers.map((s, j) => (j === i ? { ...s, name } : s)),
      lines: draft.lines.map((l) => (l.speaker === old ? { ...l, speaker: name } : l)),
    });
  };
  const addSpeaker = () => {
    const used = new Set(draft.speakers.map((s) => s.voice));
    const voice = VOICES.find((v) => !used.has(v.id))?.id ?? VOICES[0]!.id;
    update({ speakers: [...draft.speakers, { name: `Speaker ${draft.speakers.length + 1}`, voice }] });
  };

  const submit = () =>
    runIfValid(dialogueProblem(body.lines, body.voices), () => playgroundApi.dialogue({ ...body, ...settings }), {
      lines: body.lines.length,
      speakers: Object.keys(body.voices).length,
    });

  return (
    <TaskScreenLayout
      task={task}
      resultTitle="Generated dialogue"
      historyFeatures={FEATURES}
      screen={SCREEN}
      code={{ request: { kind: 'dialogue', body, settings }, cost }}
      examples={{ screen: 'dialogue', onTry: (inputs) => (update(inputs as Partial<DialogueDraft>), clearProblem()) }}
    >
      <fieldset className={styles.voices}>
        <legend className="field-label">Speakers and voices</legend>
        <div className={`grid ${dialogue.speakers}`}>
          {draft.speakers.map((s, i) => (
            <div key={i} className="field">
              <Field id={`speaker-name-${i}`} label={`Speaker ${i + 1} name`} quiet>
                <input
                  className={styles.input}
                  value={s.name}
                  maxLength={TASK_LIMITS.maxSpeakerNameChars}
                  onChange={(e) => renameSpeaker(i, e.target.value)}
                />
              </Field>
              <VoiceSelect
                label={`Voice of ${s.name || `speaker ${i + 1}`}`}
                value={s.voice}
                screen={SCREEN}
                onChange={(voice) =>
                  update({ speakers: draft.speakers.map((x, j) => (j === i ? { ...x, voice } : x)) })
                }
              />
            </div>
          ))}
        </div>
        {draft.speakers.length < TASK_LIMITS.maxDialogueSpeakers && (
          <button type="button" className="button button--ghost" onClick={addSpeaker}>
            Add speaker
          </button>
        )}
      </fieldset>

      <fieldset className={styles.voices}>
        <legend className="field-label">Lines</legend>
        <ol className={dialogue.lines}>
          {draft.lines.map((l, i) => (
            <li key={i} className={dialogue.line}>
              <select
                aria-label={`Speaker of line ${i + 1}`}
                className={styles.input}
                value={l.speaker}
                onChange={(e) => setLines(draft.lines.map((x, j) => (j === i ? { ...x, speaker: e.target.value } : x)))}
              >
                {draft.speakers.map((s, j) => (
                  <option key={j} value={s.name}>
                    {s.name}
                  </option>
                ))}
              </select>
              <textarea
                aria-label={`Line ${i + 1} text`}
                className={styles.textarea}
                rows={2}
                maxLength={TASK_LIMITS.maxTextChars}
                value={l.text}
                placeholder="What this speaker says"
                onChange={(e) => setLines(draft.lines.map((x, j) => (j === i ? { ...x, text: e.target.value } : x)))}
              />
              <div className={dialogue.lineActions}>
                <button
                  type="button"
                  className={styles.iconButton}
                  aria-label={`Move line ${i + 1} up`}
                  disabled={i === 0}
                  onClick={() => move(i, -1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className={styles.iconButton}
                  aria-label={`Move line ${i + 1} down`}
                  disabled={i === draft.lines.length - 1}
                  onClick={() => move(i, 1)}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className={styles.iconButton}
                  aria-label={`Remove line ${i + 1}`}
                  onClick={() => setLines(draft.lines.filter((_, j) => j !== i))}
                >
                  ✕
                </button>
              </div>
            </li>
          ))}
        </ol>
        {draft.lines.length < TASK_LIMITS.maxDialogueLines && (
          <button
            type="button"
            className="button button--ghost"
            onClick={() => {
              // Alternate speakers by default: a conversation rarely has one person speak twice in a row.
              const last = draft.lines.at(-1)?.speaker;
              const next = draft.speakers.find((s) => s.name !== last) ?? draft.speakers[0]!;
              setLines([...draft.lines, { speaker: next.name, text: '' }]);
            }}
          >
            Add line
          </button>
        )}
        <p className="field-hint">
          {body.lines.reduce((n, l) => n + characterCount(l.text), 0)} characters in {draft.lines.length} lines · billed
          like Text to Speech Common
        </p>
      </fieldset>
      <AdvancedSettings
        known={optionsKnown}
        options={options}
        value={extra.settings}
        onChange={(s) => updateExtra({ settings: s })}
        idPrefix="dialogue"
      />
      <CostBar
        cost={cost}
        feature="dialogue"
        label="Generate dialogue"
        busy={task.busy}
        blocked={unavailable}
        onSubmit={submit}
      />
      <InputProblem problem={problem} />
    </TaskScreenLayout>
  );
}
