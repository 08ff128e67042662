// What an API reference page runs before anyone interacts with it, held to the static pages' budget
// (src/lib/product-rules/page-budgets.ts): it marks the areas for a guest; the samples' own inline script
// (origin-early.ts) has filled in the API origin before. The rest loads when wanted: the controls (tabs, Copy, Try it)
// with the first pointer, focus or key on them, and a signed-in user's key once the session names one.
import { $user } from '../../lib/stores/signed-in';

const controls = () => import('./reference-controls');

/**
 * Wires the `[data-samples]` and `[data-try-it]` areas in `page`; returns a function that stops following the session.
 */
export function startReferencePage(page: Document | HTMLElement = document): () => void {
  // Until the controls have loaded, an event on them waits for them: a click or key is answered a moment later, once.
  for (const type of ['pointerover', 'focusin', 'click', 'keydown']) page.addEventListener(type, wake);

  return $user.subscribe((user) => {
    // What a guest sees instead (the note on keys, Log in to try it) is in the page, shown by CSS on this mark.
    for (const area of page.querySelectorAll('[data-samples], [data-try-it]'))
      area.toggleAttribute('data-guest', user === null);
    // Masking, Reveal and fetching the key load only for a signed-in user: a guest's page never needs them.
    if (user?.userId) void controls().then((m) => m.showKeys(page));
  });
}

function wake(event: Event): void {
  const target = event.target as Element;
  const area = target.closest?.<HTMLElement>('[data-samples], [data-try-it]');
  if (!area) return;
  const loading = controls();
  if (event.type !== 'click' && event.type !== 'keydown') return;
  // The tablist's keys must not scroll the page (Home, End) even before its controls have loaded.
  if (target.getAttribute('role') === 'tab' && /^(ArrowLeft|ArrowRight|Home|End)$/.test((event as KeyboardEvent).key))
    event.preventDefault();
  void loading.then((m) => m.handle(area, event));
}
