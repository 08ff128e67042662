// Benchmark: Lighthouse (mobile settings) on the static pages in Debian's Chromium: scores, LCP, TBT, CLS, JS bytes,
// against the goals (performance ≥ 98 on static pages, ≥ 95 on playground screens, TBT ≤ 150 ms, CLS 0).
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startServer } from './server.mjs';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../tests/e2e/support/chromium.ts';

/** The static pages: the playground's home, the price list, the docs and references, contact and payment result. */
const PAGES = ['/playground', '/pricing', '/docs', '/reference', '/api-reference/ttsCommon', '/contact-us', '/payment'];
export const GOALS = { staticPerformance: 98, playgroundPerformance: 95, tbtMs: 150, cls: 0 };
/**
 * Runs per page (LIGHTHOUSE_RUNS, default 3); each figure is the median, as Lighthouse advises on a machine that is not
 * idle.
 */
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS) || 3);
/** The median of the runs that produced a figure (a run Lighthouse could not finish gives NaN and is left out). */
const median = (values) => {
  const finite = values.filter(Number.isFinite).sort((a, b) => a - b);
  return finite.length ? finite[Math.floor(finite.length / 2)] : NaN;
};

function scriptBytes(lhr) {
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  return items.filter((i) => i.resourceType === 'Script').reduce((sum, i) => sum + (i.transferSize ?? 0), 0);
}

/** One Lighthouse run (its default config is the mobile one: Moto G class device, throttled 4G). */
async function measure(port, url) {
  const result = await lighthouse(url, {
    port,
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  // An audit Lighthouse could not finish (a crash, no paint) has no value: the row says why instead of a figure.
  const value = (id) => lhr.audits[id]?.numericValue;
  const problem =
    lhr.runtimeError?.message ??
    ['largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift']
      .map((id) => lhr.audits[id]?.errorMessage)
      .find(Boolean);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    'best-practices': score('best-practices'),
    'LCP ms': Math.round(value('largest-contentful-paint') ?? NaN),
    'TBT ms': Math.round(value('total-blocking-time') ?? NaN),
    CLS: Number((value('cumulative-layout-shift') ?? NaN).toFixed(3)),
    'JS bytes (transfer)': scriptBytes(lhr),
    problem: problem ?? '',
  };
}

/** Whether a row meets the goals for its kind of page. */
export function meetsGoals(row, performanceGoal) {
  return row.performance >= performanceGoal && row['TBT ms'] <= GOALS.tbtMs && row.CLS <= GOALS.cls ? 'yes' : 'NO';
}

/** One row per page; `performanceGoal` is the score its kind of page is held to (GOALS). */
export async function lighthouseScores(pages = PAGES, performanceGoal = GOALS.staticPerformance) {
  const server = await startServer();
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROMIUM_FLAGS,
  });
  const rows = [];
  try {
    for (const page of pages) {
      const runs = [];
      for (let run = 0; run < RUNS; run += 1) runs.push(await measure(chrome.port, `${server.url}${page}`));
      const row = { page };
      for (const key of Object.keys(runs[0])) {
        row[key] =
          typeof runs[0][key] === 'number' ? median(runs.map((r) => r[key])) : runs.map((r) => r[key]).find(Boolean);
      }
      // A run that failed is reported only when no run of the page gave figures.
      if (!row.problem || Number.isFinite(row['LCP ms'])) delete row.problem;
      row.goals = meetsGoals(row, performanceGoal);
      if (RUNS > 1) row.runs = RUNS;
      rows.push(row);
    }
  } finally {
    await chrome.kill();
    await server.stop();
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.table(await lighthouseScores(process.argv.slice(2).length ? process.argv.slice(2) : undefined));
