// Voice Clone: upload or record a sample, name it, confirm consent; the clone then appears in the speech voice picker.
import { useEffect } from 'react';
import { TASK_LIMITS } from '../../lib/product-rules';
import { playgroundApi, type UploadedMedia } from './api';
import { nameClone } from './cloned-voices';
import CostBar from './CostBar';
import { useDraft } from './draft';
import DropZone from './DropZone';
import InputProblem from './InputProblem';
import { costOf } from './pricing';
import Recorder from './Recorder';
import TaskScreenLayout from './TaskScreenLayout';
import { useTaskForm } from './useTaskForm';
import TextField from '../shared/TextField';
import styles from './playground.module.css';

const SCREEN = 'voiceClone';
const FEATURES = ['voice-clone'] as const;

export default function VoiceCloneScreen() {
  const [draft, update] = useDraft(SCREEN, { sample: null as UploadedMedia | null, name: '', consent: false });
  const { task, problem, unavailable, runIfValid } = useTaskForm(SCREEN, 'voice-clone', 'Voice cloning');

  // The server keeps no name for a clone: remember the one given here once the clone exists.
  useEffect(() => {
    if (task.phase === 'succeeded' && task.task) nameClone(task.task.taskId, draft.name.trim());
  }, [task.phase, task.task, draft.name]);

  const submit = () => {
    const found = !draft.sample
      ? 'Sample: upload or record the voice to clone.'
      : !draft.name.trim()
        ? 'Name: give the voice a name you will recognise in the voice picker.'
        : !draft.consent
          ? 'Consent: confirm that this is your voice or that you have permission to clone it.'
          : null;
    runIfValid(found, () => playgroundApi.voiceClone({ voiceUrl: draft.sample!.url }));
  };

  return (
    <TaskScreenLayout
      task={task}
      resultTitle="Cloned voice"
      historyFeatures={FEATURES}
      screen={SCREEN}
      code={{ request: { kind: 'voiceClone', sampleUrl: draft.sample?.url }, cost: costOf('voice-clone', {}) }}
      examples={{ screen: 'voiceClone', onTry: (inputs) => update(inputs as Partial<typeof draft>) }}
    >
      <DropZone
        label="Voice sample"
        kinds={['audio']}
        value={draft.sample}
        onChange={(sample) => update({ sample })}
        screen={SCREEN}
      />
      {!draft.sample && <Recorder onRecorded={(sample) => update({ sample })} screen={SCREEN} />}
      <TextField
        id="clone-name"
        label="Name"
        className={styles.input}
        maxLength={TASK_LIMITS.maxSpeakerNameChars}
        value={draft.name}
        placeholder="e.g. My narration voice"
        onValue={(name) => update({ name })}
      />
      <label className={styles.inline}>
        <input type="checkbox" checked={draft.consent} onChange={(e) => update({ consent: e.target.checked })} />
        This is my voice, or I have the speaker&apos;s permission to clone it.
      </label>
      <CostBar
        cost={costOf('voice-clone', {})}
        label="Clone voice"
        busy={task.busy}
        blocked={unavailable}
        onSubmit={submit}
      />
      <InputProblem problem={problem} />
      {task.phase === 'succeeded' && (
        <p>
          Use it in <a href="/playground/speech">Text to Speech</a>: it is listed first in the voice picker.
        </p>
      )}
    </TaskScreenLayout>
  );
}
