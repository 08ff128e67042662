// The pricing page's Buy buttons without React: CreditPacks.astro renders the packs, this sends a click to buy.ts
// (loaded with the click, so the page's first load stays within its budget). While the server takes no payments,
// src/lib/site/payments-marks.ts has disabled them and shown why (data-payments-off on the root).

/** Wires the `[data-pack]` buttons inside `root`; its `[data-error]` element shows what went wrong. */
export function mountCreditPacks(root: HTMLElement): void {
  const buttons = [...root.querySelectorAll<HTMLButtonElement>('[data-pack]')];
  const error = root.querySelector<HTMLElement>('[data-error]')!;
  const off = () => root.hasAttribute('data-payments-off');
  root.addEventListener('click', async (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('[data-pack]');
    if (!button || off()) return;
    error.hidden = true;
    const text = button.textContent;
    for (const b of buttons) b.disabled = true;
    button.textContent = 'Opening checkout…';
    try {
      // Stays disabled on the way to checkout, as the page is about to go.
      const { buyPack } = await import('./buy');
      if ((await buyPack(button.dataset.pack!)) === 'checkout') return;
    } catch (e) {
      // buyPack rejects with the API client's errors, whose messages are for people (SPEC.md §8).
      error.textContent = (e as Error).message;
      error.hidden = false;
    }
    button.textContent = text;
    if (!off()) for (const b of buttons) b.disabled = false;
  });
}
