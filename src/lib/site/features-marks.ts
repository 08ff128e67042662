// Marks what this server does not serve before any input: a badge on nav links, home cards and reference pages, and a
// notice in place of a playground screen's form. Runs on every page from the layout, so it stays tiny (no framework).
import { FEATURE_MESSAGES, VOICE_MESSAGES, VOICES, voiceServed, type Feature } from '../product-rules';
import { isServed, loadFeatures, type FeatureMap } from './features';

/**
 * Elements with `data-features="a b"` none of whose features is served get `data-unavailable` and a badge (inside their
 * `[data-feature-badge]` child when they have one); with `data-feature-screen` they are hidden behind a notice instead,
 * which names `data-feature-title`, offers the served products and stands as tall as the form did (no layout shift).
 */
export function applyFeatureMarks(map: FeatureMap, root: ParentNode = document): void {
  const screens: HTMLElement[] = [];
  for (const el of root.querySelectorAll<HTMLElement>('[data-features]')) {
    const features = (el.dataset.features ?? '').split(' ').filter(Boolean) as Feature[];
    if (features.length === 0 || el.hasAttribute('data-unavailable') || isServed(map, features)) continue;
    el.setAttribute('data-unavailable', '');
    if (el.hasAttribute('data-feature-screen')) screens.push(el);
    else {
      const badge = document.createElement('span');
      badge.className = 'feature-badge';
      badge.textContent = FEATURE_MESSAGES.notAvailableHere;
      (el.querySelector('[data-feature-badge]') ?? el).append(badge);
    }
  }
  // After the links are marked, so the notice can offer the products that can be tried instead.
  for (const screen of screens) replaceWithNotice(screen, root);
  applyVoiceNotes(map, root);
}

/**
 * `[data-voice-note="feature"]` (a speech call's reference page) says so when the engine serving it speaks only some
 * languages.
 */
function applyVoiceNotes(map: FeatureMap, root: ParentNode): void {
  for (const el of root.querySelectorAll<HTMLElement>('[data-voice-note]')) {
    const state = map.get(el.dataset.voiceNote as Feature);
    if (!state?.available || !state.languages) continue;
    const languages = state.languages;
    el.textContent = VOICE_MESSAGES.referenceNote(
      state.engineLabel ?? state.engine ?? '',
      languages,
      VOICES.filter((v) => voiceServed(v, languages)),
    );
    el.hidden = false;
  }
}

/**
 * The notice in place of an unserved screen's form: the message, then links to the products this server serves (the
 * nav's product links without the mark). The answer comes after the page is shown, so the notice stands as tall as
 * the form did and nothing below it moves.
 */
function replaceWithNotice(screen: HTMLElement, root: ParentNode): void {
  const box = document.createElement('div');
  box.className = 'feature-notice-box';
  const notice = document.createElement('p');
  notice.className = 'feature-notice';
  notice.setAttribute('role', 'status');
  notice.textContent = FEATURE_MESSAGES.screenNotice(screen.dataset.featureTitle ?? 'This product');
  box.append(notice);
  const served = new Map<string, string>();
  for (const link of root.querySelectorAll<HTMLAnchorElement>(
    'nav a[href^="/playground/"][data-features]:not([data-unavailable])',
  )) {
    const name = link.querySelector('strong')?.textContent ?? link.textContent ?? '';
    if (name && !served.has(link.pathname)) served.set(link.pathname, name);
  }
  if (served.size > 0) {
    const lead = document.createElement('p');
    lead.className = 'feature-notice-lead';
    lead.textContent = FEATURE_MESSAGES.screenAlternatives;
    box.append(lead);
    const list = document.createElement('ul');
    list.className = 'feature-notice-others';
    list.setAttribute('aria-label', 'Products you can try here');
    for (const [href, name] of served) {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = href;
      link.textContent = name;
      item.append(link);
      list.append(item);
    }
    box.append(list);
  }
  const height = screen.getBoundingClientRect().height;
  if (height > 0) box.style.minHeight = `${height}px`;
  screen.before(box);
  screen.hidden = true;
}

/** Asks the server once and marks the page; when it cannot be asked, nothing is marked and a submit says it. */
export function markFeatures(): void {
  if (!document.querySelector('[data-features], [data-voice-note]')) return;
  loadFeatures().then(
    (map) => applyFeatureMarks(map),
    () => {},
  );
}
