// Marks what this server does not serve before any input: a badge on nav links, home cards and reference pages, and a
// notice in place of a playground screen's form. Runs on every page from the layout, so it stays tiny (no framework).
import { FEATURE_MESSAGES, type Feature } from '../spec';
import { isServed, loadFeatures, type FeatureMap } from './features';

/**
 * Elements with `data-features="a b"` none of whose features is served get `data-unavailable` and a badge (inside their
 * `[data-feature-badge]` child when they have one); with `data-feature-screen` they are hidden behind a notice instead,
 * which names `data-feature-title`.
 */
export function applyFeatureMarks(map: FeatureMap, root: ParentNode = document): void {
  for (const el of root.querySelectorAll<HTMLElement>('[data-features]')) {
    const features = (el.dataset.features ?? '').split(' ').filter(Boolean) as Feature[];
    if (features.length === 0 || el.hasAttribute('data-unavailable') || isServed(map, features)) continue;
    el.setAttribute('data-unavailable', '');
    if (el.hasAttribute('data-feature-screen')) {
      const notice = document.createElement('p');
      notice.className = 'feature-notice';
      notice.setAttribute('role', 'status');
      notice.textContent = FEATURE_MESSAGES.screenNotice(el.dataset.featureTitle ?? 'This product');
      el.before(notice);
      el.hidden = true;
    } else {
      const badge = document.createElement('span');
      badge.className = 'feature-badge';
      badge.textContent = FEATURE_MESSAGES.notAvailableHere;
      (el.querySelector('[data-feature-badge]') ?? el).append(badge);
    }
  }
}

/** Asks the server once and marks the page; when it cannot be asked, nothing is marked and a submit says it. */
export function markFeatures(): void {
  if (!document.querySelector('[data-features]')) return;
  loadFeatures().then(
    (map) => applyFeatureMarks(map),
    () => {},
  );
}
