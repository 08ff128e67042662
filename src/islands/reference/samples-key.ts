// A signed-in user's key in the code samples of a reference page: masked until revealed, fetched when the session has
// none. reference-controls.ts loads this once someone is signed in, so a guest's page never downloads it.
import { fetchApiKey, maskApiKey } from '../../lib/reference/api-key';
import { $apiKey, $user } from '../../lib/stores/signed-in';

/**
 * Shows the key in every language of a `[data-samples]` area and wires its Reveal key; returns a function that stops
 * following the session.
 */
export function showKey(area: HTMLElement): () => void {
  const reveal = area.querySelector<HTMLButtonElement>('[data-reveal]');
  if (!reveal) return () => {};
  let revealed = false;
  const render = () => {
    const userId = $user.get()?.userId;
    const key = userId ? $apiKey.get() : null;
    if (userId && !key) void fetchApiKey(userId);
    if (!key) revealed = false;
    const shown = key ? (revealed ? key : maskApiKey(key)) : area.dataset.placeholder!;
    // Every language's sample: the one shown and those waiting in <template>s.
    for (const part of [area, ...[...area.querySelectorAll('template')].map((t) => t.content)]) {
      for (const el of part.querySelectorAll('[data-key]')) el.textContent = shown;
    }
    reveal.hidden = !key;
    reveal.textContent = revealed ? 'Hide key' : 'Reveal key';
    reveal.setAttribute('aria-pressed', String(revealed));
  };
  reveal.addEventListener('click', () => {
    revealed = !revealed;
    render();
  });
  const stops = [$user.subscribe(render), $apiKey.subscribe(render)];
  return () => stops.forEach((stop) => stop());
}
