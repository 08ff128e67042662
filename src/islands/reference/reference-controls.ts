// The controls of a reference page, loaded by reference-page.ts with the first pointer, focus or key on them: the
// samples' language tabs (WAI-ARIA tablist: arrows, Home, End; a roving tabindex) and Copy, and Try it, whose React
// form loads on its click. It imports everything on demand, the stores the shell has already loaded too, so the page's
// own script carries no list of chunks to preload with it (src/lib/product-rules/page-budgets.ts).

const TAB_KEYS: Record<string, (at: number, count: number) => number> = {
  ArrowRight: (at, count) => (at + 1) % count,
  ArrowLeft: (at, count) => (at + count - 1) % count,
  Home: () => 0,
  End: (_at, count) => count - 1,
};

/** Answers a click or key in a `[data-samples]` or `[data-try-it]` area. */
export function handle(area: HTMLElement, event: Event): void {
  const button = (event.target as Element).closest('button');
  if (!button) return;
  if (event.type === 'click' && button.matches('[data-open]')) return startTryIt(area);
  if (event.type === 'click' && button.matches('[data-copy]')) return void copy(area);
  if (button.getAttribute('role') !== 'tab') return;
  const move = event instanceof KeyboardEvent ? TAB_KEYS[event.key] : undefined;
  if (event.type === 'click') select(area, button);
  else if (move) {
    const tabs = [...area.querySelectorAll<HTMLElement>('[role=tab]')];
    const tab = tabs[move(tabs.indexOf(button), tabs.length)]!;
    tab.focus();
    select(area, tab);
  }
}

/** Shows the language of `tab`: its <code> moves into the panel, the one shown goes back to its <template>. */
function select(area: HTMLElement, tab: HTMLElement): void {
  const panel = area.querySelector<HTMLElement>('[role=tabpanel]')!;
  const template = (language?: string) =>
    area.querySelector<HTMLTemplateElement>(`template[data-language="${language}"]`)!.content;
  const language = tab.dataset.tab;
  if (panel.dataset.language !== language) {
    // The shown sample holds the API origin (origin-early.ts wrote it before the first paint); the new one takes it.
    const origin = panel.querySelector('[data-origin]')?.textContent;
    template(panel.dataset.language).append(...panel.childNodes);
    panel.append(template(language));
    if (origin) for (const el of panel.querySelectorAll('[data-origin]')) el.textContent = origin;
  }
  panel.dataset.language = language;
  panel.setAttribute('aria-labelledby', tab.id);
  for (const t of area.querySelectorAll<HTMLElement>('[role=tab]')) {
    t.setAttribute('aria-selected', String(t === tab));
    // Roving tabindex: Tab enters the list on the chosen language; the arrow keys move between them.
    t.tabIndex = t === tab ? 0 : -1;
  }
  // A new language, so "Copied" no longer speaks of what is shown.
  area.querySelector('[data-copied]')!.textContent = '';
}

async function copy(area: HTMLElement): Promise<void> {
  const { $apiKey, $user } = await import('../../lib/stores/signed-in');
  const said = area.querySelector('[data-copied]')!;
  // The copy always carries the real key, so the pasted command works as is.
  const key = ($user.get()?.userId && $apiKey.get()) || '';
  const code = area.querySelector('[role=tabpanel]')!.cloneNode(true) as Element;
  const keyPlaces = code.querySelectorAll('[data-key]');
  for (const el of keyPlaces) el.textContent = key || area.dataset.placeholder!;
  try {
    await navigator.clipboard.writeText(code.textContent!);
    said.textContent = key && keyPlaces.length > 0 ? 'Copied with your key' : 'Copied';
  } catch {
    said.textContent = 'Copy failed; select the text instead';
  }
}

const keyed = new WeakSet<Element>();

/**
 * Shows a signed-in user's key in the samples of `page`; its code (masking, Reveal, fetching the key) loads with the
 * first call.
 */
export function showKeys(page: ParentNode): void {
  for (const area of page.querySelectorAll<HTMLElement>('[data-samples]')) {
    if (keyed.has(area) || !area.querySelector('[data-reveal]')) continue;
    keyed.add(area);
    void import('./samples-key').then((m) => m.showKey(area));
  }
}

/**
 * Try this call: a guest is asked to log in first when the call needs a key (reference-page.ts marks guests), as the
 * form would.
 */
function startTryIt(area: HTMLElement): void {
  // A call this server does not serve (features-marks.ts marks the page's header) would only answer 503: say so
  // instead.
  if (area.ownerDocument.querySelector('.op-header[data-unavailable]')) return notServedHere(area);
  if (area.matches('[data-guest][data-needs-key]'))
    void import('../../lib/stores/modals').then((m) => m.openModal('login'));
  else void openTryIt(area);
}

/** The page's own words for it (TryIt.astro), so this module imports no messages. */
function notServedHere(area: HTMLElement): void {
  area.querySelector<HTMLElement>('[data-unserved]')!.hidden = false;
}

const opening = new WeakMap<HTMLElement, Promise<void>>();

/** Loads React and the form into the area and moves focus into the form. */
export function openTryIt(area: HTMLElement): Promise<void> {
  const button = area.querySelector<HTMLElement>('[data-open]')!;
  const problem = area.querySelector<HTMLElement>('[data-problem]')!;
  const host = area.querySelector<HTMLElement>('[data-form]')!;
  const open = opening.get(area);
  if (open) return open;
  const label = [...button.childNodes];
  button.textContent = 'Loading…';
  const loading = import('./try-it-root').then(
    ({ renderTryIt }) => {
      renderTryIt(host, JSON.parse(area.dataset.spec!) as never, area.dataset.baseUrl!);
      button.hidden = true;
      problem.hidden = true;
      // Into the form: its body, else its first control that takes focus, else the form itself.
      const target = host.querySelector<HTMLElement>('textarea, button:not(:disabled)') ?? host;
      if (target === host) host.tabIndex = -1;
      target.focus();
    },
    () => {
      opening.delete(area);
      button.replaceChildren(...label);
      problem.hidden = false;
    },
  );
  opening.set(area, loading);
  return loading;
}
