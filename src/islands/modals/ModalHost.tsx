// Renders whichever account modal is open and the toast; starts the session once per page (SPEC.md §2 shell, §4).
import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { $modal, $toast } from '../../lib/stores/modals';
import { initSession } from '../../lib/stores/session';
import BindEmailPrompt from './BindEmailPrompt';
import InfoModal from './InfoModal';
import InvitationModal from './InvitationModal';
import LoginModal from './LoginModal';
import SuspensionModal from './SuspensionModal';
import styles from './modals.module.css';

const TOAST_MS = 3000;

export default function ModalHost() {
  const modal = useStore($modal);
  const toast = useStore($toast);

  useEffect(() => {
    initSession();
  }, []);

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => $toast.set(null), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast]);

  return (
    <>
      {modal === 'login' && <LoginModal />}
      {modal === 'invitation' && <InvitationModal />}
      {modal === 'info' && <InfoModal />}
      {modal === 'suspension' && <SuspensionModal />}
      {modal === 'bindEmail' && <BindEmailPrompt />}
      <div role="status" aria-live="polite">
        {toast && (
          <p key={toast.id} className={`${styles.toast} ${toast.kind === 'error' ? styles.toastError : styles.toastSuccess}`}>
            {toast.message}
          </p>
        )}
      </div>
    </>
  );
}
