// The account area of the navigation bar without React (SPEC.md §2): Log In for guests, else the avatar, the credits
// pill and the account menu. NavBar.astro renders the markup; this keeps it in step with the session store.
import { openModal } from '../../lib/stores/modals';
import { $user } from '../../lib/stores/signed-in';
import type { MenuButton } from './menu-keys';

/**
 * Wires the account area inside `root` (the `[data-account]` element of NavBar.astro); returns a function that stops
 * it. `menuReady` settles once the account menu answers its keys: its code loads for a signed-in user only.
 */
export function mountAccountNav(root: HTMLElement): { stop: () => void; menuReady: () => Promise<void> } {
  const login = root.querySelector<HTMLButtonElement>('[data-login]')!;
  const signedIn = root.querySelector<HTMLElement>('[data-signed-in]')!;
  const trigger = signedIn.querySelector<HTMLButtonElement>('[aria-haspopup]')!;
  const menu = signedIn.querySelector<HTMLElement>('[role="menu"]')!;
  const text = (name: string, value: string) => {
    for (const el of root.querySelectorAll(`[data-${name}]`)) el.textContent = value;
  };
  let menuApi: Promise<MenuButton> | null = null;
  let wired = false;
  const wireMenu = () =>
    (menuApi ??= import('./menu-keys').then(({ menuButton }) => {
      wired = true;
      return menuButton(trigger, menu);
    }));
  // A click in the moment before the menu's code has arrived still opens it.
  trigger.addEventListener('click', () => {
    if (!wired) void wireMenu().then((m) => m.open('first'));
  });

  login.addEventListener('click', () => openModal('login'));
  menu.addEventListener('click', (event) => {
    const action = (event.target as Element).closest<HTMLElement>('[data-action]')?.dataset.action;
    if (action === 'invitation') openModal('invitation');
    // Signing out is loaded when chosen, so every page's first load stays small
    // (src/lib/product-rules/page-budgets.ts).
    if (action === 'logout') void import('../../lib/stores/login').then(({ logout }) => logout());
  });

  const stop = $user.subscribe((user) => {
    // Unknown (undefined) reads as a guest, as the server-rendered page does, so nothing moves for most visitors.
    login.hidden = Boolean(user);
    signedIn.hidden = !user;
    if (!user) {
      void menuApi?.then((m) => m.close(false));
      return;
    }
    void wireMenu();
    const label = user.userEmail || user.userName || 'Account';
    text('avatar', label.slice(0, 1).toUpperCase());
    text('credits', `${user.userPoints ?? 0} credits`);
    text('label', `Account menu for ${label}`);
    text('who', label);
  });
  return { stop, menuReady: async () => void (await menuApi) };
}
