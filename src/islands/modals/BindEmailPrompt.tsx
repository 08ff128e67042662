// The bind-email prompt (SPEC.md §4): for an account without an email, shown at most once per 24 h.
import { EXTERNAL_LINKS } from '../../lib/site/links';
import { closeModal } from '../../lib/stores/modals';
import Modal from './Modal';
import styles from './modals.module.css';

export default function BindEmailPrompt() {
  return (
    <Modal title="Add an email address" onClose={closeModal}>
      <p>
        Your account has no email address yet. Add one so you can sign in by email code and receive billing notices.
      </p>
      <div className={styles.row}>
        <button type="button" className="button button--ghost" onClick={closeModal}>
          Later
        </button>
        <a className="button" href={EXTERNAL_LINKS.support}>
          Add email
        </a>
      </div>
    </Modal>
  );
}
