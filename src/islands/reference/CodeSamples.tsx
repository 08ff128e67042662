// Code samples of one operation (curl, JavaScript, Python) with a copy button; a signed-in user's key is filled in, masked until revealed.
import { useState } from 'react';
import { KEY_PLACEHOLDER, SAMPLE_LANGUAGES, sample, type SampleLanguage, type SampleSpec } from '../../lib/reference/samples';
import { maskApiKey, useApiKey, useApiOrigin } from './useApiKey';
import styles from './reference.module.css';

interface Props {
  spec: SampleSpec;
  /** The API base the page was built with, shown until the browser knows its own. */
  baseUrl: string;
  /** Distinguishes the tab ids when a page shows more than one sample block. */
  idPrefix: string;
}

export default function CodeSamples({ spec, baseUrl, idPrefix }: Props) {
  const key = useApiKey();
  const origin = useApiOrigin(baseUrl);
  const [language, setLanguage] = useState<SampleLanguage>('curl');
  const [revealed, setRevealed] = useState(false);
  const [copied, setCopied] = useState<'' | 'done' | 'failed'>('');
  const usesKey = spec.auth === 'bearer';
  const shownKey = key ? (revealed ? key : maskApiKey(key)) : KEY_PLACEHOLDER;
  const code = sample(language, spec, origin, shownKey);

  const copy = async () => {
    // The copy always carries the real key, so the pasted command works as is.
    try {
      await navigator.clipboard.writeText(sample(language, spec, origin, key ?? KEY_PLACEHOLDER));
      setCopied('done');
    } catch {
      setCopied('failed');
    }
  };

  const select = (id: SampleLanguage) => {
    setLanguage(id);
    setCopied('');
  };

  return (
    <div className={styles.samples}>
      <div className={styles.toolbar}>
        <div role="tablist" aria-label="Sample language" className={styles.tabs}>
          {SAMPLE_LANGUAGES.map((l) => (
            <button
              key={l.id}
              type="button"
              role="tab"
              id={`${idPrefix}-tab-${l.id}`}
              aria-selected={language === l.id}
              aria-controls={`${idPrefix}-panel`}
              className={styles.tab}
              onClick={() => select(l.id)}
            >
              {l.label}
            </button>
          ))}
        </div>
        <div className={styles.actions}>
          {usesKey && key && (
            <button type="button" className="button button--ghost" onClick={() => setRevealed((r) => !r)} aria-pressed={revealed}>
              {revealed ? 'Hide key' : 'Reveal key'}
            </button>
          )}
          <button type="button" className="button" onClick={() => void copy()}>
            Copy
          </button>
        </div>
      </div>
      <pre id={`${idPrefix}-panel`} role="tabpanel" aria-labelledby={`${idPrefix}-tab-${language}`} tabIndex={0} className={styles.code} data-testid="code-sample" data-language={language}>
        <code>{code}</code>
      </pre>
      <p className={styles.note} role="status">
        {copied === 'done' ? 'Copied' + (usesKey && key ? ' with your key' : '') : copied === 'failed' ? 'Copy failed; select the text instead' : ''}
        {!copied && usesKey && !key && key !== undefined ? `Log in to see your own key here instead of ${KEY_PLACEHOLDER}.` : ''}
      </p>
    </div>
  );
}
