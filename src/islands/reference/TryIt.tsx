// Try it: a signed-in user sends this operation's request with their key and sees the answer; a charged call asks
// first.
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { TRY_IT } from '../../lib/product-rules';
import { openModal } from '../../lib/stores/modals';
import { $offer, loadOffer, type FeatureMap } from '../../lib/stores/offer';
import { operationFeatures } from '../../lib/site/features';
import { freeHereNote } from '../../lib/site/run-cost';
import type { SampleSpec } from '../../lib/reference/samples';
import { tryItCost, type TryCost } from '../../lib/reference/try-cost';
import PaidConfirm from '../shared/PaidConfirm';
import block from '../shared/code-block.module.css';
import { useApiKey, useApiOrigin } from './useApiKey';
import styles from './reference.module.css';

interface Props {
  spec: SampleSpec;
  baseUrl: string;
}

interface Answer {
  status: number;
  body: string;
}

/** Parses the edited body, saying what is wrong instead of sending a request that would be refused anyway. */
function parseBody(text: string): { value?: unknown; problem?: string } {
  if (text.trim() === '') return { value: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { problem: 'The body must be a JSON object, e.g. {}' };
    return { value };
  } catch (e) {
    return { problem: `The body is not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/**
 * What the cost line says when every feature this call may run is free on this server (an engine with no AI model):
 * then nothing is asked, as the playground charges nothing for it either. Null while the answer is unknown.
 */
function freeHere(path: string, features: FeatureMap | null): string | null {
  const notes = operationFeatures(path).map((feature) => freeHereNote(feature, features));
  return notes.length > 0 && notes.every(Boolean) ? notes[0]! : null;
}

export default function TryIt({ spec, baseUrl }: Props) {
  const key = useApiKey();
  const origin = useApiOrigin(baseUrl);
  const hasBody = spec.method === 'post';
  const [text, setText] = useState(() => JSON.stringify(spec.example ?? {}, null, 2));
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [problem, setProblem] = useState('');
  const [sending, setSending] = useState(false);
  /** The cost of the body about to be sent, while the person is asked whether to spend it. */
  const [asking, setAsking] = useState<TryCost | null>(null);
  // The server's own prices: a call it runs free here spends nothing, so it is not asked about.
  const offer = useStore($offer);
  useEffect(() => {
    loadOffer().catch(() => undefined);
  }, []);
  const free = freeHere(spec.path, offer?.features ?? null);

  if (spec.contentType === 'multipart/form-data') {
    return (
      <p className={block.note}>
        This call takes a file: use the samples above with the host and fields of a policy from step 1.
      </p>
    );
  }
  if (spec.auth === 'bearer' && key === null) {
    return (
      <p className={`cluster ${styles.login}`}>
        <button type="button" className="button" onClick={() => openModal('login')}>
          Log in to try it
        </button>
        Requests are sent with your own API key and use your credits; a call that costs credits asks first.
      </p>
    );
  }

  /** The body as JSON, or null after saying what is wrong with it. */
  const parsedBody = (): { value: unknown } | null => {
    const parsed = hasBody ? parseBody(text) : { value: undefined };
    if (parsed.problem) {
      setProblem(parsed.problem);
      return null;
    }
    return { value: parsed.value };
  };

  /** Send, or first ask when the call spends credits (a submit runs a real task). */
  const start = () => {
    const parsed = parsedBody();
    if (!parsed) return;
    setProblem('');
    const cost = free ? null : tryItCost(spec.path, parsed.value);
    if (cost) setAsking(cost);
    else void send(parsed.value);
  };

  const send = async (value: unknown) => {
    setAsking(null);
    setProblem('');
    // A new request clears the last answer, so an answer on screen always belongs to the request just sent.
    setAnswer(null);
    setSending(true);
    try {
      const headers: Record<string, string> = {};
      if (spec.auth === 'bearer' && key) headers.authorization = `Bearer ${key}`;
      if (hasBody) headers['content-type'] = 'application/json';
      const res = await fetch(origin + spec.path, {
        method: spec.method.toUpperCase(),
        headers,
        body: hasBody ? JSON.stringify(value) : undefined,
      });
      const raw = await res.text();
      let body = raw;
      try {
        body = JSON.stringify(JSON.parse(raw), null, 2);
      } catch {
        // Not JSON: show it as it came.
      }
      setAnswer({ status: res.status, body });
    } catch (e) {
      setProblem(`The request did not reach the server: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setSending(false);
    }
  };

  return (
    <div className={styles.tryit}>
      {hasBody && (
        <label className={styles.field}>
          <span>Request body (JSON)</span>
          <textarea
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              // The cost asked about was for the old body.
              setAsking(null);
            }}
            rows={Math.min(12, text.split('\n').length + 1)}
            spellCheck={false}
          />
        </label>
      )}
      {free && (
        <p className={block.note} data-testid="tryit-free">
          {free}
        </p>
      )}
      {asking ? (
        <PaidConfirm
          question={TRY_IT.question(asking.credits, asking.price)}
          confirm={TRY_IT.confirm(asking.credits)}
          onConfirm={() => void send(parsedBody()?.value)}
          onCancel={() => setAsking(null)}
        />
      ) : (
        <button type="button" className="button" onClick={start} disabled={sending || (spec.auth === 'bearer' && !key)}>
          {sending ? 'Sending…' : 'Send request'}
        </button>
      )}
      {problem && (
        <p className={styles.error} role="alert">
          {problem}
        </p>
      )}
      {answer && (
        <section aria-label="Answer" className={styles.answer}>
          <p>
            HTTP <strong data-testid="tryit-status">{answer.status}</strong>
          </p>
          <pre tabIndex={0} className={block.code} data-testid="tryit-answer">
            <code>{answer.body}</code>
          </pre>
        </section>
      )}
    </div>
  );
}
