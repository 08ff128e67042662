// Benchmark: every playground screen's Lighthouse performance score, TBT, CLS and JS bytes (mobile settings), via
// lighthouse.mjs.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { GOALS, lighthouseScores } from './lighthouse.mjs';
import { siteDir } from './page-weight.mjs';

/**
 * The screens as built: every folder under playground/ with a page, so a new screen is measured without a list to keep.
 */
export function playgroundScreens(dist = siteDir()) {
  const folder = path.join(dist, 'playground');
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(folder, entry.name, 'index.html')))
    .map((entry) => `/playground/${entry.name}`)
    .sort();
}

export async function playgroundScores() {
  const rows = await lighthouseScores(playgroundScreens(), GOALS.playgroundPerformance);
  return rows.map((r) => ({
    page: r.page,
    performance: r.performance,
    'LCP ms': r['LCP ms'],
    'TBT ms': r['TBT ms'],
    CLS: r.CLS,
    'JS bytes (transfer)': r['JS bytes (transfer)'],
    goals: r.goals,
  }));
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await playgroundScores());
