// Benchmark: Lighthouse (mobile settings) on key pages in Debian's Chromium: scores, LCP, TBT, CLS, JS bytes.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startServer } from './server.mjs';

const PAGES = ['/pricing', '/playground'];
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

function scriptBytes(lhr) {
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  return items.filter((i) => i.resourceType === 'Script').reduce((sum, i) => sum + (i.transferSize ?? 0), 0);
}

export async function lighthouseScores(pages = PAGES) {
  const server = await startServer();
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', chromeFlags: FLAGS });
  const rows = [];
  try {
    for (const page of pages) {
      // Lighthouse's default config is the mobile one (Moto G class device, throttled 4G).
      const { lhr } = await lighthouse(`${server.url}${page}`, {
        port: chrome.port,
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
      });
      const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      rows.push({
        page,
        performance: score('performance'),
        accessibility: score('accessibility'),
        'best-practices': score('best-practices'),
        'LCP ms': Math.round(lhr.audits['largest-contentful-paint'].numericValue),
        'TBT ms': Math.round(lhr.audits['total-blocking-time'].numericValue),
        CLS: Number(lhr.audits['cumulative-layout-shift'].numericValue.toFixed(3)),
        'JS bytes (transfer)': scriptBytes(lhr),
      });
    }
  } finally {
    await chrome.kill();
    await server.stop();
  }
  return rows;
}
