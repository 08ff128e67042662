// Dialogue Script: write a script, or fill a template from a topic (no AI), edit it, then send it to the Dialogue
// screen.
import { useState } from 'react';
import { TASK_LIMITS, VOICES } from '../../lib/product-rules';
import { DIALOGUE_DRAFT_KEY, type Speaker } from './dialogue-draft';
import { useDraft, writeDraft } from './draft';
import InputProblem from './InputProblem';
import { parseScript, SCRIPT_STYLES, generateScript, scriptToText, type ScriptStyle } from './script-template';
import { trackAction } from './track';
import { dialogueProblem } from './validate';
import Field from '../shared/Field';
import TextField from '../shared/TextField';
import styles from './playground.module.css';
import own from './DialogueContentScreen.module.css';

const SCREEN = 'dialogueContent';
/** The draft's fields for the two speakers' names. */
const SPEAKER_KEYS = ['a', 'b'] as const;

export default function DialogueContentScreen() {
  const [draft, update] = useDraft(SCREEN, { topic: '', style: 'interview', a: 'Alex', b: 'Sam', script: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const style = (SCRIPT_STYLES.some((s) => s.id === draft.style) ? draft.style : 'interview') as ScriptStyle;
  const lines = parseScript(draft.script);

  const generate = () => {
    if (!draft.topic.trim()) return setProblem('Topic: say what the dialogue is about, e.g. "learning to cook".');
    const a = draft.a.trim() || 'Alex';
    const b = draft.b.trim() || 'Sam';
    if (a === b) return setProblem('Give the two speakers different names.');
    setProblem(null);
    trackAction(SCREEN, 'generate', 'click', { style });
    update({ script: scriptToText(generateScript(draft.topic, style, [a, b])) });
  };

  const send = () => {
    const names = [...new Set(lines.map((l) => l.speaker))];
    const speakers: Speaker[] = names.map((name, i) => ({ name, voice: VOICES[i % VOICES.length]!.id }));
    const voices = Object.fromEntries(speakers.map((s) => [s.name, s.voice]));
    const p = lines.length === 0 ? 'Script: write or generate some lines first.' : dialogueProblem(lines, voices);
    setProblem(p);
    if (p) return;
    writeDraft(DIALOGUE_DRAFT_KEY, { speakers, lines });
    trackAction(SCREEN, 'send', 'click', { lines: lines.length });
    location.assign('/playground/dialogue');
  };

  return (
    <div className={styles.layout}>
      <div className={`card ${styles.form}`}>
        <TextField
          id="script-topic"
          label="Topic"
          className={styles.input}
          maxLength={TASK_LIMITS.maxScriptTopicChars}
          value={draft.topic}
          placeholder="e.g. learning to cook"
          onValue={(topic) => update({ topic })}
        />
        <div className={`grid ${styles.trio}`}>
          <Field id="script-style" label="Style">
            <select className={styles.input} value={style} onChange={(e) => update({ style: e.target.value })}>
              {SCRIPT_STYLES.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </select>
          </Field>
          {SPEAKER_KEYS.map((key, i) => (
            <TextField
              key={key}
              id={`script-speaker-${key}`}
              label={`Speaker ${i + 1}`}
              className={styles.input}
              maxLength={TASK_LIMITS.maxSpeakerNameChars}
              value={draft[key]}
              onValue={(name) => update({ [key]: name })}
            />
          ))}
        </div>
        <div className="cluster">
          <button type="button" className="button button--ghost" onClick={generate}>
            Fill from template
          </button>
          <span className="field-hint">Templates are filled in on this page; no AI writes them. Edit freely.</span>
        </div>
        <TextField
          id="script-text"
          label="Script"
          hint={`${lines.length} lines · ${new Set(lines.map((l) => l.speaker)).size} speakers (at most ${TASK_LIMITS.maxDialogueSpeakers}). Writing is free; you pay when you voice it.`}
          multiline
          rows={12}
          className={styles.textarea}
          maxLength={TASK_LIMITS.maxDialogueLines * 200}
          value={draft.script}
          placeholder={'One line per turn, as "Name: what they say"\nAlex: Hi Sam!\nSam: Hi Alex, how are you?'}
          onValue={(script) => update({ script })}
        />
        <button type="button" className="button" onClick={send}>
          Voice it in Dialogue
        </button>
        <InputProblem problem={problem} />
      </div>
      <aside className={`card ${own.howItWorks}`} aria-labelledby="script-how">
        <h2 id="script-how">How it works</h2>
        <ol>
          <li>
            Name a topic, pick a style and two speakers, then fill the script from a template, or write it yourself.
          </li>
          <li>
            Edit it freely: one line per turn, as “Name: what they say”, up to {TASK_LIMITS.maxDialogueLines} lines and{' '}
            {TASK_LIMITS.maxDialogueSpeakers} speakers.
          </li>
          <li>
            Voice it in Dialogue: the script opens there, each speaker gets a voice, and the cost shows before you run
            it.
          </li>
        </ol>
        <p className="field-hint">Writing here is free. The script stays in this tab until you voice it.</p>
      </aside>
    </div>
  );
}
