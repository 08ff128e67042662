// A menu button without a framework (WAI-ARIA menu button pattern): the button opens a role=menu list; ArrowUp/Down
// move through its items (wrapping), Home and End jump, Escape closes it and returns focus, Tab or a click elsewhere
// closes it.

export interface MenuButton {
  open(focus: 'first' | 'last'): void;
  close(returnFocus: boolean): void;
  readonly isOpen: boolean;
}

export function menuButton(trigger: HTMLButtonElement, menu: HTMLElement): MenuButton {
  const items = () => [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')];
  const focusAt = (index: number) => {
    const list = items();
    list[(index + list.length) % list.length]?.focus();
  };

  const api: MenuButton = {
    get isOpen() {
      return !menu.hidden;
    },
    open(focus) {
      menu.hidden = false;
      trigger.setAttribute('aria-expanded', 'true');
      focusAt(focus === 'first' ? 0 : -1);
    },
    close(returnFocus) {
      if (menu.hidden) return;
      menu.hidden = true;
      trigger.setAttribute('aria-expanded', 'false');
      if (returnFocus) trigger.focus();
    },
  };

  trigger.addEventListener('click', () => (api.isOpen ? api.close(false) : api.open('first')));
  trigger.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    api.open(event.key === 'ArrowDown' ? 'first' : 'last');
  });
  menu.addEventListener('keydown', (event) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, () => void> = {
      ArrowDown: () => focusAt(at + 1),
      ArrowUp: () => focusAt(at - 1),
      Home: () => focusAt(0),
      End: () => focusAt(-1),
      Escape: () => api.close(true),
    };
    const move = moves[event.key];
    if (move) {
      // Handled here: the navigation bar's own Escape handler must not also fold the mobile menu.
      event.preventDefault();
      event.stopPropagation();
      move();
    } else if (event.key === 'Tab') {
      api.close(false);
    }
  });
  // A chosen item closes the menu; so does a click anywhere outside the button and the menu.
  menu.addEventListener('click', (event) => {
    if ((event.target as Element).closest('[role="menuitem"]')) api.close(false);
  });
  document.addEventListener('click', (event) => {
    const target = event.target as Node;
    if (!trigger.contains(target) && !menu.contains(target)) api.close(false);
  });
  return api;
}
