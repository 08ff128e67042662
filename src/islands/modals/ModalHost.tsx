// Renders whichever account modal is open (SPEC.md §2 shell, §4); loaded by modal-loader.ts only once a modal is
// wanted.
import { useStore } from '@nanostores/react';
import { $modal } from '../../lib/stores/modals';
import BindEmailPrompt from './BindEmailPrompt';
import InfoModal from './InfoModal';
import InvitationModal from './InvitationModal';
import LoginModal from './LoginModal';
import SuspensionModal from './SuspensionModal';

export default function ModalHost() {
  const modal = useStore($modal);
  return (
    <>
      {modal === 'login' && <LoginModal />}
      {modal === 'invitation' && <InvitationModal />}
      {modal === 'info' && <InfoModal />}
      {modal === 'suspension' && <SuspensionModal />}
      {modal === 'bindEmail' && <BindEmailPrompt />}
    </>
  );
}
