// The navigation bar's account area without React: Log In for guests, the credits pill for a user, and the account
// menu's keys (WAI-ARIA menu button: ArrowUp/Down wrap, Home, End, Escape returns focus, Tab closes) (SPEC.md §2).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UserInfo } from '../../lib/api';
import { $modal, resetModals } from '../../lib/stores/modals';
import { $user } from '../../lib/stores/signed-in';
import { mountAccountNav } from './account-nav';

let nav: ReturnType<typeof mountAccountNav> | null = null;

/** The account area as NavBar.astro renders it. */
function render(): HTMLElement {
  document.body.innerHTML = `<div data-account>
    <button type="button" data-login>Log In</button>
    <div data-signed-in hidden>
      <button type="button" aria-haspopup="menu" aria-expanded="false"><span data-avatar></span><span data-credits></span><span data-label></span></button>
      <ul role="menu" hidden>
        <li role="none" data-who></li>
        <li role="none"><a role="menuitem" tabindex="-1" href="/dashboard?type=dashboard">Dashboard</a></li>
        <li role="none"><a role="menuitem" tabindex="-1" href="/dashboard?type=key">Key</a></li>
        <li role="none"><button type="button" role="menuitem" tabindex="-1" data-action="invitation">My Invitation</button></li>
        <li role="none"><button type="button" role="menuitem" tabindex="-1" data-action="logout">Log out</button></li>
      </ul>
    </div>
  </div>`;
  const root = document.querySelector<HTMLElement>('[data-account]')!;
  nav = mountAccountNav(root);
  return root;
}

const user = { userId: 'u1', userEmail: 'ada@example.com', userName: 'ada', userPoints: 231 } as UserInfo;
const trigger = () => document.querySelector<HTMLButtonElement>('[aria-haspopup]')!;
const menu = () => document.querySelector<HTMLElement>('[role="menu"]')!;
const focused = () => document.activeElement?.textContent;
const press = (key: string, target: Element = document.activeElement!) =>
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));

beforeEach(() => $user.set(undefined));
afterEach(() => {
  nav?.stop();
  resetModals();
});

describe('account area', () => {
  it('offers Log In to a guest, which opens the login modal, without loading the menu', async () => {
    const root = render();
    $user.set(null);
    await nav!.menuReady();
    root
      .querySelector<HTMLButtonElement>('[aria-haspopup]')!
      .dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    expect(root.querySelector<HTMLElement>('[role="menu"]')!.hidden).toBe(true);
    expect(root.querySelector<HTMLElement>('[data-signed-in]')!.hidden).toBe(true);
    root.querySelector<HTMLButtonElement>('[data-login]')!.click();
    expect($modal.get()).toBe('login');
  });

  it('shows a signed-in user the avatar, the credits and an accessible name, and follows the balance', () => {
    const root = render();
    $user.set(user);
    expect(root.querySelector<HTMLElement>('[data-login]')!.hidden).toBe(true);
    expect(root.querySelector('[data-credits]')!.textContent).toBe('231 credits');
    expect(root.querySelector('[data-label]')!.textContent).toBe('Account menu for ada@example.com');
    expect(root.querySelector('[data-avatar]')!.textContent).toBe('A');
    $user.set({ ...user, userPoints: 731 });
    expect(root.querySelector('[data-credits]')!.textContent).toBe('731 credits');
  });
});

describe('account menu keys', () => {
  beforeEach(async () => {
    render();
    $user.set(user);
    // The menu's key handling loads for a signed-in user only.
    await nav!.menuReady();
  });

  it('opens from the button on the first item; ArrowDown and ArrowUp move and wrap; Home and End jump', () => {
    trigger().click();
    expect(menu().hidden).toBe(false);
    expect(trigger().getAttribute('aria-expanded')).toBe('true');
    expect(focused()).toBe('Dashboard');
    press('ArrowDown');
    expect(focused()).toBe('Key');
    press('ArrowUp');
    press('ArrowUp');
    expect(focused()).toBe('Log out');
    press('ArrowDown');
    expect(focused()).toBe('Dashboard');
    press('End');
    expect(focused()).toBe('Log out');
    press('Home');
    expect(focused()).toBe('Dashboard');
  });

  it('opens on the last item with ArrowUp on the button, and Escape closes it and returns focus to the button', () => {
    trigger().focus();
    press('ArrowUp', trigger());
    expect(focused()).toBe('Log out');
    press('Escape');
    expect(menu().hidden).toBe(true);
    expect(trigger().getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(trigger());
  });

  it('closes on Tab, on a click elsewhere, and after an item is chosen', () => {
    trigger().click();
    press('Tab');
    expect(menu().hidden).toBe(true);
    trigger().click();
    document.body.click();
    expect(menu().hidden).toBe(true);
    trigger().click();
    [...menu().querySelectorAll<HTMLElement>('[role="menuitem"]')]
      .find((item) => item.textContent === 'My Invitation')!
      .click();
    expect(menu().hidden).toBe(true);
    expect($modal.get()).toBe('invitation');
  });

  it('closes when the user signs out', async () => {
    trigger().click();
    $user.set(null);
    await nav!.menuReady();
    expect(menu().hidden).toBe(true);
    expect(document.querySelector<HTMLElement>('[data-login]')!.hidden).toBe(false);
  });
});
