// Example outputs of a screen before its first run, each with what running it costs here and "Try an example" that
// fills the form with its inputs (files uploaded as the person's own).
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { playgroundApi, type MediaInfo } from '../../../lib/api';
import {
  exampleMedia,
  examplesOf,
  type ExampleMedia,
  type ExampleScreen,
  type PlaygroundExample,
} from '../../../lib/product-rules';
import { openModal } from '../../../lib/stores/modals';
import { $loggedIn } from '../../../lib/stores/signed-in';
import { $offer, loadOffer } from '../../../lib/stores/offer';
import { exampleCost } from './example-cost';
import styles from './examples.module.css';

interface Props {
  screen: ExampleScreen;
  /** Fills the form: the example's draft fields, with each of its files as the upload the form would hold. */
  onTry: (inputs: Record<string, unknown>, example: PlaygroundExample) => void;
}

function Media({ media, label }: { media: ExampleMedia; label: string }) {
  if (media.kind === 'audio')
    return (
      <audio
        className={styles.media}
        controls
        preload="none"
        src={media.src}
        aria-label={label}
        data-testid="example-audio"
      />
    );
  if (media.kind === 'video')
    return (
      <video
        className={styles.media}
        controls
        muted
        playsInline
        preload="metadata"
        src={media.src}
        aria-label={label}
        data-testid="example-video"
      />
    );
  return <img className={styles.media} src={media.src} alt={label} loading="lazy" data-testid="example-image" />;
}

/** Fetches an example file from this site and uploads it, so the run uses the person's own copy like any upload. */
async function uploadExample(media: ExampleMedia): Promise<MediaInfo> {
  const res = await fetch(media.src);
  if (!res.ok) throw new Error(`The example file ${media.src} could not be loaded (HTTP ${res.status}).`);
  const name = media.src.split('/').pop()!;
  return playgroundApi.upload(
    new File([await res.blob()], name, { type: media.mime }),
    media.kind,
    () => undefined,
    name,
  );
}

export default function Examples({ screen, onTry }: Props) {
  const loggedIn = useStore($loggedIn);
  // Prices here come with the page's one offer answer (the screen asked for it already).
  const features = useStore($offer)?.features ?? null;
  useEffect(() => {
    loadOffer().catch(() => undefined);
  }, []);
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const examples = examplesOf(screen);
  if (examples.length === 0) return null;

  const tryExample = async (example: PlaygroundExample) => {
    setProblem(null);
    if (!example.files?.length) return onTry(example.inputs, example);
    // Its files become uploads of the person's account, which a guest does not have yet.
    if (!loggedIn) return openModal('login');
    setBusy(example.id);
    try {
      const uploads = await Promise.all(
        example.files.map(async (f) => [f.field, await uploadExample(exampleMedia(f.src))] as const),
      );
      onTry({ ...example.inputs, ...Object.fromEntries(uploads) }, example);
    } catch (e) {
      setProblem(`${e instanceof Error ? e.message : 'The example could not be loaded'}. Try again.`);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className={styles.examples} aria-labelledby={`examples-${screen}`} data-testid="examples">
      <h2 id={`examples-${screen}`}>Examples</h2>
      <p className={styles.hint}>
        What this screen makes. Try one to fill the form with its inputs, then change anything and run it.
      </p>
      <ul className={styles.list}>
        {examples.map((e) => (
          <li key={e.id} className={styles.item} data-example={e.id}>
            <strong>{e.title}</strong>
            <Media media={exampleMedia(e.output)} label={`Example: ${e.title}`} />
            <p className={styles.madeBy}>{e.madeBy}</p>
            {/* A paid run's cost is said before anything runs; trying only fills the form, whose run button then says
                the same cost beside it and runs nothing until pressed. */}
            <p className={styles.cost} data-testid="example-cost">
              Running it: <strong>{exampleCost(e, features)}</strong>. Trying it only fills the form; nothing runs or is
              charged until you press the run button.
            </p>
            <button
              type="button"
              className="button button--ghost"
              aria-label={`Try an example: ${e.title}`}
              disabled={busy !== null}
              aria-busy={busy === e.id}
              onClick={() => void tryExample(e)}
            >
              {busy === e.id ? 'Loading the example…' : 'Try an example'}
            </button>
          </li>
        ))}
      </ul>
      {problem && (
        <p role="alert" className={styles.problem}>
          {problem}
        </p>
      )}
    </section>
  );
}
