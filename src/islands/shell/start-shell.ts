// The page shell's one script (no framework on first load): starts the session (SPEC.md §4) and wires the
// account area, the toasts and the cookie banner to their stores; the modal host loads, with React, only when wanted.
import { mountAccountNav } from '../account/account-nav';
import { watchModals } from '../modals/modal-loader';
import { initSignedIn } from '../../lib/stores/signed-in-start';
import { mountCookieBanner } from './cookie-banner';
import { showToasts } from './toast';

export function startShell(): void {
  initSignedIn();
  watchModals();
  const find = (selector: string) => document.querySelector<HTMLElement>(selector);
  const account = find('[data-account]');
  if (account) mountAccountNav(account);
  const toasts = find('[data-toasts]');
  if (toasts) showToasts(toasts);
  const banner = find('[data-cookie-banner]');
  if (banner) mountCookieBanner(banner);
}
