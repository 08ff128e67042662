// The account area of the navigation bar: Log In for guests, else the account menu of SPEC.md §2.
import { useEffect, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { EXTERNAL_LINKS } from '../../lib/site/links';
import { $credits } from '../../lib/stores/credits';
import { openModal } from '../../lib/stores/modals';
import { $user, logout } from '../../lib/stores/session';
import styles from './AccountMenu.module.css';

export default function AccountMenu() {
  const user = useStore($user);
  const credits = useStore($credits);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onClick = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('click', onClick);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('click', onClick);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  if (!user) {
    return (
      <button type="button" className="button" onClick={() => openModal('login')}>
        Log In
      </button>
    );
  }

  const label = user.userEmail || user.userName || 'Account';
  return (
    <div className={styles.root} ref={root}>
      <button type="button" className={styles.trigger} aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        <span className={styles.avatar} aria-hidden="true">
          {label.slice(0, 1).toUpperCase()}
        </span>
        <span className={styles.credits}>{credits ?? 0} credits</span>
        <span className="visually-hidden">Account menu for {label}</span>
      </button>
      {open && (
        <ul className={styles.menu} role="menu" aria-label="Account">
          <li className={styles.who} role="none">
            {label}
          </li>
          <li role="none">
            <a role="menuitem" href="/dashboard?type=dashboard">Dashboard</a>
          </li>
          <li role="none">
            <a role="menuitem" href="/dashboard?type=key">Key</a>
          </li>
          <li role="none">
            <a role="menuitem" href="/dashboard?type=billing">Billing</a>
          </li>
          <li role="none">
            <button
              type="button"
              role="menuitem"
              onClick={() => {
                setOpen(false);
                openModal('invitation');
              }}
            >
              My Invitation
            </button>
          </li>
          <li role="none">
            <a role="menuitem" href={EXTERNAL_LINKS.support}>Support</a>
          </li>
          <li role="none">
            <button
              type="button"
              role="menuitem"
              onClick={() => {
                setOpen(false);
                void logout();
              }}
            >
              Log out
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}
