// A file picker that also takes drag and drop: checks the file like the server does, uploads it with a progress bar.
import { useId, useRef, useState, type DragEvent } from 'react';
import type { MediaKind } from '../../lib/product-rules';
import { uploadFile, type UploadedMedia } from './api';
import { acceptOf, checkDuration, checkFile, describeLimits, mediaDuration } from './media-check';
import { $loggedIn } from '../../lib/stores/signed-in';
import { openModal } from '../../lib/stores/modals';
import { trackAction } from './track';
import styles from './playground.module.css';
import zone from './DropZone.module.css';

interface Props {
  label: string;
  kinds: readonly MediaKind[];
  value: UploadedMedia | null;
  onChange: (media: UploadedMedia | null) => void;
  screen: string;
}

export default function DropZone({ label, kinds, value, onChange, screen }: Props) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);

  const take = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    if (!$loggedIn.get()) {
      // Uploads are stored per user: a guest signs in first (the screen's other inputs stay in the draft).
      setError('Log in to upload files.');
      openModal('login');
      return;
    }
    const checked = checkFile(file, kinds);
    if ('error' in checked) return setError(checked.error);
    const tooLong = checkDuration(checked.kind, await mediaDuration(file, checked.kind));
    if (tooLong) return setError(tooLong);
    setProgress(0);
    try {
      const media = await uploadFile(file, checked.kind, setProgress, file.name);
      trackAction(screen, 'upload', 'click', { kind: media.kind, size: media.size });
      onChange(media);
    } catch (e) {
      setError(`${e instanceof Error ? e.message : 'Upload failed'}. Choose the file again to retry.`);
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  };

  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    void take(e.dataTransfer.files[0]);
  };

  return (
    <div className="field">
      <span className="field-label" id={`${id}-label`}>
        {label}
      </span>
      <div
        className={`${zone.drop} ${over ? zone.dropOver : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
      >
        {value ? (
          <div className={zone.picked}>
            {value.kind === 'image' ? (
              <img src={value.url} alt="" className={zone.thumb} />
            ) : value.kind === 'audio' ? (
              <audio controls src={value.url} className={styles.player} aria-label={`${label} preview`} />
            ) : (
              <video controls playsInline src={value.url} className={zone.thumb} aria-label={`${label} preview`} />
            )}
            <span>
              {value.kind} · {(value.size / 1024).toFixed(0)} KB
              {value.durationS ? ` · ${value.durationS.toFixed(1)} s` : ''}
            </span>
            <button type="button" className="button button--ghost" onClick={() => onChange(null)}>
              Remove
            </button>
          </div>
        ) : (
          <>
            <p>
              Drop a file here or{' '}
              <label htmlFor={id} className={zone.browse}>
                browse
              </label>
            </p>
            <p className="field-hint">{kinds.map(describeLimits).join(' · ')}</p>
          </>
        )}
        <input
          ref={input}
          id={id}
          type="file"
          className="visually-hidden"
          accept={acceptOf(kinds)}
          aria-labelledby={`${id}-label`}
          onChange={(e) => void take(e.target.files?.[0])}
        />
        {progress !== null && (
          <progress className={styles.progress} max={1} value={progress} aria-label={`Uploading ${label}`} />
        )}
      </div>
      {error && (
        <p role="alert" className={styles.fieldError}>
          {error}
        </p>
      )}
    </div>
  );
}
