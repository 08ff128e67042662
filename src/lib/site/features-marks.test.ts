// Marks of what this server does not serve, on the real app's features answer: nav links, home cards, reference pages,
// screens.
// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeBrowserTo, type RoutedBrowser } from '../../../server/test-support/browser';
import { createTasksTestApp, type TasksTestApp } from '../../../server/test-support/tasks';
import { FEATURE_MESSAGES } from '../product-rules';
import { applyFeatureMarks, markFeatures } from './features-marks';
import {
  FEATURES_PATH,
  featuresAttribute,
  forgetFeatures,
  loadFeatures,
  operationFeatures,
  PRODUCT_FEATURES,
} from './features';
import { PRODUCTS } from './products';

let t: TasksTestApp;
let net: RoutedBrowser;
beforeEach(async () => {
  // The default engines: speech on eSpeak, video on the preview engine; no provider key, so no clone, translation or
  // try-on.
  t = await createTasksTestApp();
  net = routeBrowserTo(t.app);
});
afterEach(async () => {
  vi.unstubAllGlobals();
  forgetFeatures();
  document.body.innerHTML = '';
  await t.close();
});

/**
 * The page parts that carry data-features, as NavBar.astro, ProductGrid.astro, [product].astro and the reference render
 * them.
 */
function page(screen: string) {
  const attr = (value: string | undefined) => (value ? ` data-features="${value}"` : '');
  const nav = PRODUCTS.map(
    (p) =>
      `<li><a href="/playground/${p.slug}"${attr(featuresAttribute(PRODUCT_FEATURES[p.slug]))}><strong>${p.title}</strong></a></li>`,
  ).join('');
  const cards = PRODUCTS.map(
    (p) =>
      `<li class="card" data-card="${p.slug}"${attr(featuresAttribute(PRODUCT_FEATURES[p.slug]))}><h2>${p.title}</h2></li>`,
  ).join('');
  const product = PRODUCTS.find((p) => p.slug === screen)!;
  document.body.innerHTML = `
    <nav><ul>${nav}</ul></nav>
    <ul>${cards}</ul>
    <section data-screen="${screen}"${attr(featuresAttribute(PRODUCT_FEATURES[screen]))} data-feature-screen data-feature-title="${product.title}"><form><textarea></textarea></form></section>
    <header data-op="tryon"${attr(featuresAttribute(operationFeatures('/api/async/tryon_clothes')))}><h1>Try on</h1></header>
    <header data-op="tts"${attr(featuresAttribute(operationFeatures('/api/async/do_tts_common')))}><h1>TTS</h1></header>
    <header data-op="result"${attr(featuresAttribute(operationFeatures('/api/getAsyncResult')))}><h1>Result</h1></header>`;
}

const link = (slug: string) => document.querySelector<HTMLAnchorElement>(`a[href="/playground/${slug}"]`)!;
const badged = (el: Element) =>
  el.querySelector('.feature-badge')?.textContent === FEATURE_MESSAGES.notAvailableHere &&
  el.hasAttribute('data-unavailable');

describe('feature marks', () => {
  it('badges the nav links, home cards and reference pages of what is not served, and leaves the rest alone', async () => {
    page('speech');
    markFeatures();
    await vi.waitFor(() => expect(badged(link('alClothesChanger'))).toBe(true));
    expect(net.sent.filter((r) => r.path === FEATURES_PATH)).toHaveLength(1);
    for (const slug of ['voiceClone', 'videoTranslate', 'alClothesChanger']) {
      expect(badged(link(slug)), slug).toBe(true);
      expect(badged(document.querySelector(`[data-card="${slug}"]`)!), slug).toBe(true);
      // The badge is inside the link, so it is part of what a screen reader reads for it.
      expect(link(slug).textContent).toContain(FEATURE_MESSAGES.notAvailableHere);
    }
    for (const slug of [
      'speech',
      'dialogue',
      'dialogueContent',
      'imageToVideo',
      'textToVideo',
      'characterToVideo',
      'lipSync',
    ]) {
      expect(link(slug).hasAttribute('data-unavailable'), slug).toBe(false);
      expect(document.querySelector(`[data-card="${slug}"] .feature-badge`), slug).toBeNull();
    }
    expect(badged(document.querySelector('[data-op="tryon"]')!)).toBe(true);
    expect(document.querySelector('[data-op="tts"] .feature-badge')).toBeNull();
    expect(document.querySelector('[data-op="result"]')!.hasAttribute('data-features')).toBe(false);
    // The served screen keeps its form.
    expect(document.querySelector<HTMLElement>('[data-screen]')!.hidden).toBe(false);
    expect(document.querySelector('.feature-notice')).toBeNull();
  });

  it('puts a notice in place of the form of a screen none of whose features is served, before any input', async () => {
    page('alClothesChanger');
    // jsdom lays nothing out: the form's height is given, as a browser would measure it.
    document.querySelector<HTMLElement>('[data-screen]')!.getBoundingClientRect = () => ({ height: 640 }) as DOMRect;
    markFeatures();
    await vi.waitFor(() => expect(document.querySelector('.feature-notice')).not.toBeNull());
    const notice = document.querySelector<HTMLElement>('.feature-notice')!;
    // As tall as the form it replaces, so nothing below moves when it appears.
    expect(notice.closest<HTMLElement>('.feature-notice-box')!.style.minHeight).toBe('640px');
    // It offers what can be tried here instead: the served products of the nav, and none of the unserved ones.
    const offered = [...document.querySelectorAll<HTMLAnchorElement>('.feature-notice-others a')].map((a) =>
      a.getAttribute('href'),
    );
    expect(offered).toContain('/playground/speech');
    expect(offered).not.toContain('/playground/alClothesChanger');
    expect(offered).not.toContain('/playground/voiceClone');
    expect(document.querySelector('.feature-notice-lead')?.textContent).toBe(FEATURE_MESSAGES.screenAlternatives);
    expect(notice.getAttribute('role')).toBe('status');
    expect(notice.textContent).toBe(FEATURE_MESSAGES.screenNotice('AI Clothes Changer'));
    expect(notice.textContent).not.toMatch(/ENGINES|engine|configur/i);
    expect(document.querySelector<HTMLElement>('[data-screen]')!.hidden).toBe(true);
  });

  it('marks once, however often it runs, and marks nothing when the server cannot be asked', async () => {
    page('speech');
    const map = await loadFeatures();
    applyFeatureMarks(map);
    applyFeatureMarks(map);
    expect(link('voiceClone').querySelectorAll('.feature-badge')).toHaveLength(1);

    forgetFeatures();
    page('alClothesChanger');
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    markFeatures();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(document.querySelector('[data-unavailable]')).toBeNull();
    expect(document.querySelector<HTMLElement>('[data-screen]')!.hidden).toBe(false);
  });
});
