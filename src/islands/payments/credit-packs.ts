// The pricing page's Buy buttons without React: CreditPacks.astro renders the packs, this sends a click to buy.ts.
import { buyPack } from './buy';

/** Wires the `[data-pack]` buttons inside `root`; its `[data-error]` element shows what went wrong. */
export function mountCreditPacks(root: HTMLElement): void {
  const buttons = [...root.querySelectorAll<HTMLButtonElement>('[data-pack]')];
  const error = root.querySelector<HTMLElement>('[data-error]')!;
  root.addEventListener('click', async (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('[data-pack]');
    if (!button) return;
    error.hidden = true;
    const text = button.textContent;
    for (const b of buttons) b.disabled = true;
    button.textContent = 'Opening checkout…';
    try {
      // Stays disabled on the way to checkout, as the page is about to go.
      if ((await buyPack(button.dataset.pack!)) === 'checkout') return;
    } catch (e) {
      // buyPack rejects with the API client's errors, whose messages are for people (SPEC.md §8).
      error.textContent = (e as Error).message;
      error.hidden = false;
    }
    button.textContent = text;
    for (const b of buttons) b.disabled = false;
  });
}
