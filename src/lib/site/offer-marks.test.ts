// The landing's headline and the pricing table's notes from the real app's offer answer: no "with AI" and no images
// from a server running only the offline engines; "Free here" where a run costs nothing; unserved rows badged.
// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routeBrowserTo } from '../../../server/test-support/browser';
import { createTasksTestApp, testEngine, type TasksTestApp } from '../../../server/test-support/tasks';
import { ENGINE_LABELS, FEATURE_MESSAGES, OFFER_COPY } from '../product-rules';
import { forgetOffer, loadOffer } from '../stores/offer';
import { featuresAttribute } from './features';
import { applyHeadline, servedHeadline } from './offer-headline';
import { markOffer } from './offer-marks';
import { PRICE_ROWS } from './price-rows';

let t: TasksTestApp | undefined;
afterEach(async () => {
  vi.unstubAllGlobals();
  forgetOffer();
  document.body.innerHTML = '';
  await t?.close();
  t = undefined;
});

async function serve(o: Parameters<typeof createTasksTestApp>[0] = {}) {
  t = await createTasksTestApp({ ...o, env: { NO_MODEL_PRICE: 'free', ...o.env } });
  routeBrowserTo(t.app);
  return loadOffer();
}

describe('the landing headline', () => {
  it('promises no AI and no images where only the offline engines run (speech on eSpeak, video on the preview engine)', async () => {
    const offer = await serve();
    expect(servedHeadline(offer)).toBe('Create speech and video');
    document.body.innerHTML = `<h1 data-offer-headline>${OFFER_COPY.landingHeadline}</h1>`;
    applyHeadline(offer, document.querySelector('h1')!);
    expect(document.querySelector('h1')!.textContent).toBe('Create speech and video');
  });

  it('says "with AI" once a served feature may use an AI model', async () => {
    const offer = await serve({ engines: [testEngine({ name: 'model' })], env: { ENGINES: 'tts-pro=model|espeak' } });
    expect(servedHeadline(offer)).toBe('Create speech and video with AI');
  });
});

/** The pricing table's feature cells as src/pages/pricing.astro renders them. */
function pricingTable() {
  document.body.innerHTML = PRICE_ROWS.flatMap((g) => g.rows)
    .map((row) => {
      const attr = featuresAttribute(row.features);
      const note = row.features[0] ? `<span data-price-note="${row.features[0]}"></span>` : '';
      return `<table><tbody><tr><th data-row="${row.name}"${attr ? ` data-features="${attr}"` : ''}>${row.name}<span data-feature-badge>${note}</span></th></tr></tbody></table>`;
    })
    .join('');
}
const cell = (name: string) => document.querySelector<HTMLElement>(`[data-row="${name}"]`)!;

describe('the pricing table', () => {
  it('says why a run is free here, badges what this server does not run, and leaves the rest at the list price', async () => {
    await serve();
    pricingTable();
    markOffer();
    await vi.waitFor(() =>
      expect(cell('Text to Speech · Common').textContent).toContain(FEATURE_MESSAGES.free(ENGINE_LABELS.espeak)),
    );
    expect(cell('Text to Video').textContent).toContain(FEATURE_MESSAGES.free(ENGINE_LABELS.preview));
    expect(cell('Dialogue').textContent).toContain('Free here');
    await vi.waitFor(() => expect(cell('AI Clothes Changer').textContent).toContain(FEATURE_MESSAGES.notAvailableHere));
    for (const name of ['Image generation', 'Erase', 'Face swap', 'Speech to text', 'Voice Clone']) {
      expect(cell(name).textContent, name).toContain(FEATURE_MESSAGES.notAvailableHere);
    }
    expect(cell('Available credits query').textContent).toBe('Available credits query');
  });

  it('says nothing of free runs when no-model runs are charged in full', async () => {
    await serve({ env: { NO_MODEL_PRICE: 'full' } });
    pricingTable();
    markOffer();
    await vi.waitFor(() => expect(cell('AI Clothes Changer').textContent).toContain(FEATURE_MESSAGES.notAvailableHere));
    expect(cell('Text to Speech · Common').textContent).toBe('Text to Speech · Common');
  });
});
