// Benchmark: the playground screens' Lighthouse performance score and JS bytes (mobile settings), via lighthouse.mjs.
import { lighthouseScores } from './lighthouse.mjs';

/** The speech screen (the busiest audio island) and the shared video screen. */
const PAGES = ['/playground/speech', '/playground/imageToVideo'];

export async function playgroundScores() {
  const rows = await lighthouseScores(PAGES);
  return rows.map((r) => ({ page: r.page, performance: r.performance, 'LCP ms': r['LCP ms'], 'TBT ms': r['TBT ms'], CLS: r.CLS, 'JS bytes (transfer)': r['JS bytes (transfer)'] }));
}
