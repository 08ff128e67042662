// Records a voice sample with the microphone (MediaRecorder), converts it to WAV and uploads it with progress.
import { useRef, useState, useSyncExternalStore } from 'react';
import { UPLOAD_LIMITS } from '../../lib/product-rules';
import { uploadFile, type UploadedMedia } from './api';
import { $loggedIn } from '../../lib/stores/signed-in';
import { openModal } from '../../lib/stores/modals';
import { recordingToWav } from './wav';
import { trackAction } from './track';
import styles from './playground.module.css';

const noSubscription = () => () => {};
const canRecord = () => 'MediaRecorder' in window && Boolean(navigator.mediaDevices);

export default function Recorder({
  onRecorded,
  screen,
}: {
  onRecorded: (media: UploadedMedia) => void;
  screen: string;
}) {
  const recorder = useRef<MediaRecorder | null>(null);
  const [recording, setRecording] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Known only in the browser; null while pre-rendering and hydrating, so the first render matches the HTML.
  const supported = useSyncExternalStore(noSubscription, canRecord, () => null);

  const start = async () => {
    setError(null);
    if (!$loggedIn.get()) return openModal('login');
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const chunks: Blob[] = [];
      const rec = new MediaRecorder(stream);
      rec.ondataavailable = (e) => chunks.push(e.data);
      rec.onstop = async () => {
        stream.getTracks().forEach((t) => t.stop());
        setRecording(false);
        try {
          const wav = await recordingToWav(new Blob(chunks, { type: rec.mimeType }));
          if (wav.size > UPLOAD_LIMITS.audio.maxBytes)
            throw new Error('The recording is too long; keep it under a minute');
          setProgress(0);
          const media = await uploadFile(wav, 'audio', setProgress, 'recording.wav');
          trackAction(screen, 'record', 'click', { durationS: media.durationS });
          onRecorded(media);
        } catch (e) {
          setError(`${e instanceof Error ? e.message : 'The recording could not be saved'}. Record again.`);
        } finally {
          setProgress(null);
        }
      };
      rec.start();
      recorder.current = rec;
      setRecording(true);
    } catch {
      setError('The microphone is not available. Allow microphone access in the browser, or upload a file instead.');
    }
  };

  if (supported === false) return <p className="field-hint">This browser cannot record; upload a file instead.</p>;
  return (
    <div className="field">
      <div className="cluster">
        <button
          type="button"
          className={recording ? 'button' : 'button button--ghost'}
          onClick={() => (recording ? recorder.current?.stop() : void start())}
          aria-pressed={recording}
          disabled={supported === null}
        >
          {recording ? '■ Stop recording' : '● Record a sample'}
        </button>
        <span className="field-hint">Read a few sentences naturally; 20–60 seconds in a quiet room works best.</span>
      </div>
      {progress !== null && (
        <progress className={styles.progress} max={1} value={progress} aria-label="Uploading the recording" />
      )}
      {error && (
        <p role="alert" className={styles.fieldError}>
          {error}
        </p>
      )}
    </div>
  );
}
