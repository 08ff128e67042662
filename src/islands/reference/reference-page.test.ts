// The code samples and Try it of a reference page without React on first load: the origin filled in at once, the tabs
// (click and WAI-ARIA keys), Copy with the real key, a signed-in user's key masked until revealed (fetched when
// missing), and Try it asking a guest to log in or mounting the React form on its click with focus in it.
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { UserInfo } from '../../lib/api';
import { sampleParts, type SamplePart } from '../../lib/reference/sample-parts';
import { SAMPLE_ORIGIN_SCRIPT } from '../../lib/reference/origin-early';
import { KEY_PLACEHOLDER, SAMPLE_LANGUAGES, type SampleSpec } from '../../lib/reference/samples';
import { $modal, resetModals } from '../../lib/stores/modals';
import { $apiKey, $user } from '../../lib/stores/signed-in';
import { FEATURE_MESSAGES } from '../../lib/product-rules';
import { startReferencePage } from './reference-page';

const spec: SampleSpec = {
  method: 'post',
  path: '/api/remaining_credits',
  auth: 'bearer',
  contentType: 'application/json',
  example: {},
  envelope: true,
};
const KEY = 'sk-AbCdEfGh1234567890wxyz';

const code = (parts: SamplePart[]) =>
  `<code>${parts.map((p) => (p.kind === 'text' ? p.text : p.kind === 'origin' ? '<span data-origin>https://&lt;your API host&gt;</span>' : `<span data-key>${KEY_PLACEHOLDER}</span>`)).join('')}</code>`;

/** Runs the samples' inline script as the browser does, right after their markup (jsdom here runs no page scripts). */
function runOriginScript(samples: Element): void {
  new Function('document', 'origin', SAMPLE_ORIGIN_SCRIPT)(
    { currentScript: { previousElementSibling: samples } },
    location.origin,
  );
}

/** The markup CodeSamples.astro and TryIt.astro render for `spec`, with the samples' inline script run. */
function render(): HTMLElement {
  const [first, ...others] = SAMPLE_LANGUAGES;
  document.body.innerHTML = `<main>
    <div class="samples" data-samples data-api-base="" data-placeholder="${KEY_PLACEHOLDER}">
      <div role="tablist" aria-label="Sample language">
        ${SAMPLE_LANGUAGES.map((l, i) => `<button type="button" role="tab" id="s-tab-${l.id}" data-tab="${l.id}" aria-selected="${i === 0}" aria-controls="s-panel" tabindex="${i === 0 ? 0 : -1}">${l.label}</button>`).join('')}
      </div>
      <button type="button" data-reveal aria-pressed="false" hidden>Reveal key</button>
      <button type="button" data-copy>Copy</button>
      <pre id="s-panel" role="tabpanel" aria-labelledby="s-tab-curl" tabindex="0" data-testid="code-sample" data-language="${first!.id}">${code(sampleParts(first!.id, spec))}</pre>
      <template data-language="${first!.id}"></template>
      ${others.map((l) => `<template data-language="${l.id}">${code(sampleParts(l.id, spec))}</template>`).join('')}
      <p role="status"><span data-copied></span><span class="guest-note">Log in to see your own key here instead of ${KEY_PLACEHOLDER}.</span></p>
    </div>
    <div data-try-it data-spec='${JSON.stringify(spec)}' data-base-url="https://&lt;your API host&gt;" data-needs-key>
      <button type="button" data-open><span class="for-guest">Log in to try it</span><span class="for-user">Try this call</span></button>
      <p role="alert" data-problem hidden>Try it did not load.</p>
      <p role="alert" data-unserved hidden>${FEATURE_MESSAGES.tryUnavailable}</p>
      <div data-form></div>
    </div>
  </main>`;
  runOriginScript(document.querySelector('[data-samples]')!);
  return document.querySelector('main')!;
}

const panel = () => document.querySelector<HTMLElement>('[role=tabpanel]')!;
const tab = (label: string) =>
  [...document.querySelectorAll<HTMLElement>('[role=tab]')].find((t) => t.textContent === label)!;
const button = (selector: string) => document.querySelector<HTMLButtonElement>(selector)!;
const signIn = () => $user.set({ userId: 'u1', userEmail: 'ada@example.com' } as UserInfo);

let stop: () => void = () => {};
let writeText: MockInstance<Clipboard['writeText']>;

beforeEach(() => {
  writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
});
afterEach(() => {
  stop();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  $user.set(undefined);
  $apiKey.set(null);
  resetModals();
  localStorage.clear();
  document.body.innerHTML = '';
});

describe('reference page samples', () => {
  it("has the browser's origin in the sample shown before the page script runs, and in each language a tab brings in", async () => {
    stop = startReferencePage(render());
    expect(panel().textContent).toContain(`'${location.origin}/api/remaining_credits'`);
    for (const label of ['JavaScript', 'Python']) {
      tab(label).click();
      await vi.waitFor(() => expect(panel().dataset.language).not.toBe('curl'));
      await vi.waitFor(() => expect(panel().textContent).toContain(`${location.origin}/api/remaining_credits`));
      expect(panel().textContent).not.toContain('your API host');
    }
  });

  it("writes the build's API base instead when the page names one", () => {
    render();
    const samples = document.querySelector<HTMLElement>('[data-samples]')!;
    samples.dataset.apiBase = 'https://api.example.com';
    for (const el of samples.querySelectorAll('[data-origin]')) el.textContent = 'https://<your API host>';
    runOriginScript(samples);
    expect(panel().textContent).toContain(`'https://api.example.com/api/remaining_credits'`);
  });

  it('marks the areas for a guest only once the session says so', () => {
    stop = startReferencePage(render());
    const areas = document.querySelectorAll('[data-samples], [data-try-it]');
    for (const area of areas) expect(area.hasAttribute('data-guest')).toBe(false);
    $user.set(null);
    for (const area of areas) expect(area.hasAttribute('data-guest')).toBe(true);
    signIn();
    for (const area of areas) expect(area.hasAttribute('data-guest')).toBe(false);
  });

  it('a tab click shows its language; the tablist keys move focus and choice with a roving tabindex', async () => {
    stop = startReferencePage(render());
    $user.set(null);
    tab('JavaScript').click();
    await vi.waitFor(() => expect(panel().dataset.language).toBe('javascript'));
    expect(panel().textContent).toContain('await fetch(');
    expect(panel().getAttribute('aria-labelledby')).toBe('s-tab-javascript');
    expect(tab('JavaScript').getAttribute('aria-selected')).toBe('true');
    expect(tab('curl').getAttribute('aria-selected')).toBe('false');

    const press = async (key: string, language: string, label: string) => {
      const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
      (document.activeElement as HTMLElement).dispatchEvent(event);
      // Stopped at once, before the controls answer: Home and End must not scroll the page.
      expect(event.defaultPrevented).toBe(true);
      await vi.waitFor(() => expect(panel().dataset.language).toBe(language));
      expect(document.activeElement).toBe(tab(label));
      expect([...document.querySelectorAll<HTMLElement>('[role=tab]')].map((t) => t.tabIndex)).toEqual(
        SAMPLE_LANGUAGES.map((l) => (l.label === label ? 0 : -1)),
      );
    };
    tab('JavaScript').focus();
    await press('ArrowRight', 'python', 'Python');
    expect(panel().textContent).toContain('requests.post(');
    await press('ArrowRight', 'curl', 'curl');
    await press('ArrowLeft', 'python', 'Python');
    await press('Home', 'curl', 'curl');
    await press('End', 'python', 'Python');
    // Back on curl, the sample is the one first shown, origin and all.
    tab('curl').click();
    await vi.waitFor(() =>
      expect(panel().textContent).toContain(`curl -sS -X POST '${location.origin}/api/remaining_credits'`),
    );
  });

  it('a guest copies the sample with the placeholder; "Copied" stands until another language is chosen', async () => {
    stop = startReferencePage(render());
    $user.set(null);
    button('[data-copy]').click();
    await vi.waitFor(() => expect(document.querySelector('[data-copied]')!.textContent).toBe('Copied'));
    expect(writeText).toHaveBeenCalledWith(expect.stringContaining(`Bearer ${KEY_PLACEHOLDER}`));
    tab('Python').click();
    await vi.waitFor(() => expect(document.querySelector('[data-copied]')!.textContent).toBe(''));
  });

  it('a failed copy says to select the text instead', async () => {
    writeText.mockRejectedValueOnce(new Error('denied'));
    stop = startReferencePage(render());
    button('[data-copy]').click();
    await vi.waitFor(() =>
      expect(document.querySelector('[data-copied]')!.textContent).toBe('Copy failed; select the text instead'),
    );
  });

  it('signed in: the key is masked in every language until revealed, and Copy carries the real key', async () => {
    $apiKey.set(KEY);
    stop = startReferencePage(render());
    signIn();
    await vi.waitFor(() => expect(button('[data-reveal]').hidden).toBe(false));
    expect(panel().textContent).not.toContain(KEY);
    // As long as the placeholder it replaced, so nothing after it on the line moves.
    expect(panel().textContent).toContain(`Bearer sk-•••••${KEY.slice(-4)}'`);
    for (const t of document.querySelectorAll('template')) expect(t.content.textContent).not.toContain(KEY_PLACEHOLDER);

    button('[data-copy]').click();
    await vi.waitFor(() => expect(document.querySelector('[data-copied]')!.textContent).toBe('Copied with your key'));
    expect(writeText).toHaveBeenCalledWith(expect.stringContaining(`Bearer ${KEY}`));

    button('[data-reveal]').click();
    expect(panel().textContent).toContain(`Bearer ${KEY}`);
    expect(button('[data-reveal]').textContent).toBe('Hide key');
    expect(button('[data-reveal]').getAttribute('aria-pressed')).toBe('true');
    tab('Python').click();
    await vi.waitFor(() => expect(panel().textContent).toContain(`"Authorization": "Bearer ${KEY}"`));
    button('[data-reveal]').click();
    expect(panel().textContent).not.toContain(KEY);

    // Signed out: the placeholder again, and no Reveal.
    $user.set(null);
    expect(panel().textContent).toContain(`Bearer ${KEY_PLACEHOLDER}`);
    expect(button('[data-reveal]').hidden).toBe(true);
  });

  it('signed in without a key in the session: it is fetched once and stored, as sign-in does', async () => {
    const fetchMock = vi.fn(async () => Response.json({ code: 0, msg: 'ok', data: { key: KEY } }));
    vi.stubGlobal('fetch', fetchMock);
    stop = startReferencePage(render());
    signIn();
    await vi.waitFor(() => expect(panel().textContent).toContain(`Bearer sk-•••••${KEY.slice(-4)}`));
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(String((fetchMock.mock.calls[0] as unknown as [string])[0])).toContain('/apply/playground');
    expect(localStorage.getItem('userKey')).toBe(KEY);
  });
});

describe('reference page Try it', () => {
  it('a guest is asked to log in and no form loads', async () => {
    stop = startReferencePage(render());
    $user.set(null);
    button('[data-open]').click();
    await vi.waitFor(() => expect($modal.get()).toBe('login'));
    expect(document.querySelector('[data-form]')!.childElementCount).toBe(0);
  });

  it('on the page of a call this server does not serve, it says so and loads no form', async () => {
    $apiKey.set(KEY);
    const main = render();
    main.insertAdjacentHTML(
      'afterbegin',
      '<header class="op-header" data-features="tts-common" data-unavailable></header>',
    );
    stop = startReferencePage(main);
    signIn();
    button('[data-open]').click();
    await vi.waitFor(() => expect(document.querySelector<HTMLElement>('[data-unserved]')!.hidden).toBe(false));
    expect(document.querySelector('[data-unserved]')!.textContent).toBe(FEATURE_MESSAGES.tryUnavailable);
    expect(document.querySelector('[data-form]')!.childElementCount).toBe(0);
  });

  it('signed in, the click mounts the React form in place of the button, with focus in its body', async () => {
    $apiKey.set(KEY);
    stop = startReferencePage(render());
    signIn();
    button('[data-open]').click();
    await vi.waitFor(() => expect(document.querySelector('[data-form] textarea')).not.toBeNull(), { timeout: 10_000 });
    expect(document.activeElement).toBe(document.querySelector('[data-form] textarea'));
    expect(button('[data-open]').hidden).toBe(true);
    expect([...document.querySelectorAll('[data-form] button')].map((b) => b.textContent)).toContain('Send request');
    expect($modal.get()).toBe(null);
  });
});
