// "View code" for the current inputs: curl, JavaScript (the SDK package, or plain fetch) and Python, each submitting
// and (but curl) waiting for the result; the user's key masked until revealed, a copy button and the call's cost.
import { useState } from 'react';
import { curlSample, KEY_PLACEHOLDER } from '../../../lib/reference/samples';
import { maskApiKey, useApiKey, useApiOrigin } from '../../reference/useApiKey';
import { callPath, sampleSpec, type ApiCall } from './calls';
import { callOf, type RunRequest } from './run-calls';
import { pythonRunSample } from './python-sample';
import { fetchSample, sdkSample } from './sdk-sample';
import styles from './code-panel.module.css';

interface Props {
  /** The screen's current inputs; the panel shows the public API call that runs them. */
  request: RunRequest;
  /**
   * Credits this call holds, from the same price function the server charges with; null while a file's length is
   * unknown.
   */
  cost: number | null;
  /** Said instead of a number when cost is null. */
  costHint?: string;
}

const RUN_LANGUAGES = [
  { id: 'curl', label: 'curl' },
  { id: 'sdk', label: 'JavaScript (SDK)' },
  { id: 'fetch', label: 'JavaScript (fetch)' },
  { id: 'python', label: 'Python' },
] as const;
type RunLanguage = (typeof RUN_LANGUAGES)[number]['id'];

function code(language: RunLanguage, call: ApiCall, origin: string, key: string): string {
  if (language === 'sdk') return sdkSample(call, origin, key);
  if (language === 'fetch') return fetchSample(call, origin, key);
  return language === 'curl' ? curlSample(sampleSpec(call), origin, key) : pythonRunSample(call, origin, key);
}

export default function CodePanel({ request, cost, costHint }: Props) {
  const call = callOf(request);
  const key = useApiKey();
  const origin = useApiOrigin('');
  const [language, setLanguage] = useState<RunLanguage>('curl');
  const [revealed, setRevealed] = useState(false);
  const [copied, setCopied] = useState<'' | 'done' | 'failed'>('');
  const shownKey = key ? (revealed ? key : maskApiKey(key)) : KEY_PLACEHOLDER;

  const copy = async () => {
    // The copy always carries the real key, so the pasted code runs as it is.
    try {
      await navigator.clipboard.writeText(code(language, call, origin, key ?? KEY_PLACEHOLDER));
      setCopied('done');
    } catch {
      setCopied('failed');
    }
  };

  return (
    <div className={styles.panel} data-testid="code-panel">
      <div className={`spread ${styles.toolbar}`}>
        <div role="tablist" aria-label="Code language" className={styles.tabs}>
          {RUN_LANGUAGES.map((l) => (
            <button
              key={l.id}
              type="button"
              role="tab"
              id={`run-code-tab-${l.id}`}
              aria-selected={language === l.id}
              aria-controls="run-code"
              className={styles.tab}
              onClick={() => {
                setLanguage(l.id);
                setCopied('');
              }}
            >
              {l.label}
            </button>
          ))}
        </div>
        <div className={styles.actions}>
          {key && (
            <button
              type="button"
              className="button button--ghost"
              onClick={() => setRevealed((r) => !r)}
              aria-pressed={revealed}
            >
              {revealed ? 'Hide key' : 'Reveal key'}
            </button>
          )}
          <button type="button" className="button" onClick={() => void copy()}>
            Copy
          </button>
        </div>
      </div>
      <p className={`spread ${styles.meta}`}>
        <code>POST {callPath(call)}</code>
        <span>
          Cost of this call: <strong data-testid="code-cost">{cost ?? '—'}</strong>{' '}
          {cost === null ? costHint : cost === 1 ? 'credit' : 'credits'}
        </span>
      </p>
      <pre
        id="run-code"
        role="tabpanel"
        aria-labelledby={`run-code-tab-${language}`}
        tabIndex={0}
        className={styles.code}
        data-testid="run-code"
        data-language={language}
      >
        <code>{code(language, call, origin, shownKey)}</code>
      </pre>
      <p className={styles.note} role="status">
        {copied === 'done'
          ? `Copied${key ? ' with your key' : ''}`
          : copied === 'failed'
            ? 'Copy failed; select the text instead'
            : ''}
        {!copied && key === null ? `Log in to see your own key here instead of ${KEY_PLACEHOLDER}.` : ''}
      </p>
    </div>
  );
}
