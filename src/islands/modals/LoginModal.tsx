// The login modal (SPEC.md §4): email step, then the 4-digit code step (sent with its attempt id) with resend
// countdown; Google and GitHub buttons when this server has them configured (the offer answer,
// src/lib/stores/offer.ts).
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { accountsApi } from '../../lib/api';
import { startOAuth } from '../../lib/auth/oauth';
import { LOGIN, LOGIN_CODES, MESSAGES, TOASTS, isValidEmail, type OAuthProvider } from '../../lib/product-rules';
import { closeModal, showToast } from '../../lib/stores/modals';
import { loginWithCode } from '../../lib/stores/login';
import { $offer, loadOffer, signInOffered } from '../../lib/stores/offer';
import CodeBoxes from './CodeBoxes';
import Modal from './Modal';
import Field from '../shared/Field';
import styles from './modals.module.css';

const PROVIDER_NAMES: Record<OAuthProvider, string> = { google: 'Google', github: 'GitHub' };
const emptyCode = () => Array.from({ length: LOGIN.codeDigits }, () => '');

export default function LoginModal() {
  const [step, setStep] = useState<'email' | 'code'>('email');
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [digits, setDigits] = useState(emptyCode);
  // The newest send's attempt id: the code typed is checked against that attempt only (docs/security.md).
  const [attemptId, setAttemptId] = useState('');
  const [sends, setSends] = useState(0);
  const [wait, setWait] = useState(0);
  // Usually here already (every page asks on load); until it is, no provider is offered that may not be configured.
  const offer = useStore($offer);
  const providers = (['google', 'github'] as const).filter((p) => signInOffered(offer, p));
  useEffect(() => {
    loadOffer().catch(() => {});
  }, []);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  const checkEmail = () => {
    const ok = isValidEmail(email.trim());
    setEmailError(ok ? '' : MESSAGES.invalidEmail);
    return ok;
  };

  const send = async () => {
    if (!checkEmail() || busy) return;
    setBusy(true);
    setError('');
    try {
      const sent = await accountsApi.sendCode(email.trim());
      setAttemptId(sent.attemptId);
      setSends((n) => n + 1);
      showToast(TOASTS.codeSent);
      setStep('code');
      setDigits(emptyCode());
      setWait(LOGIN_CODES.resendIntervalS);
    } catch (e) {
      showToast(TOASTS.codeNotSent, 'error');
      setError(e instanceof Error ? e.message : MESSAGES.sentFailed);
    } finally {
      setBusy(false);
    }
  };

  const submit = async (code: string) => {
    setBusy(true);
    setError('');
    try {
      await loginWithCode(email.trim(), code, attemptId);
      showToast(TOASTS.signedIn);
      closeModal();
    } catch (e) {
      showToast(TOASTS.signInFailed, 'error');
      setError(`${MESSAGES.loginFailed}: ${e instanceof Error ? e.message : ''}`);
      setDigits(emptyCode());
    } finally {
      setBusy(false);
    }
  };

  const oauth = (provider: OAuthProvider) => {
    startOAuth(provider).catch((e: unknown) => setError(e instanceof Error ? e.message : MESSAGES.loginFailed));
  };

  return (
    <Modal title={step === 'email' ? 'Log in or sign up' : 'Enter the code'} onClose={closeModal}>
      {step === 'email' ? (
        <form
          className={styles.form}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <Field id="login-email" label="Email" error={emailError}>
            <input
              className={styles.input}
              type="email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              // An untouched field says nothing when focus leaves it (for a Google button, say); Continue checks it.
              onBlur={() => email.trim() && checkEmail()}
            />
          </Field>
          {error && (
            <p className={styles.error} role="alert">
              {error}
            </p>
          )}
          <button type="submit" className={`button ${styles.full}`} disabled={busy}>
            Continue
          </button>
          {providers.length > 0 && (
            <>
              <p className={styles.divider}>or</p>
              <div className={styles.row}>
                {providers.map((p) => (
                  <button key={p} type="button" className="button button--ghost" onClick={() => oauth(p)}>
                    {PROVIDER_NAMES[p]}
                  </button>
                ))}
              </div>
            </>
          )}
        </form>
      ) : (
        <div className={styles.form}>
          <p className={styles.hint}>
            We sent a {LOGIN.codeDigits}-digit code to <strong>{email.trim()}</strong>. The email also has a link that
            signs you in.
            {sends > 1 ? ' Use the newest email.' : ''}
          </p>
          <CodeBoxes digits={digits} disabled={busy} onChange={setDigits} onComplete={(code) => void submit(code)} />
          {error && (
            <p className={styles.error} role="alert">
              {error}
            </p>
          )}
          <div className={styles.row}>
            <button
              type="button"
              className={styles.link}
              onClick={() => {
                setStep('email');
                setSends(0);
              }}
            >
              Change email
            </button>
            <button type="button" className={styles.link} disabled={wait > 0 || busy} onClick={() => void send()}>
              {wait > 0 ? `Resend in ${wait}s` : 'Resend code'}
            </button>
          </div>
        </div>
      )}
    </Modal>
  );
}
