// Tracking specs' shared steps: the page's tracker status, opening a tab with a ready tracker, reading the collector's
// store.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, type BrowserContext, type Page } from '@playwright/test';

export interface TrackerStatus {
  deviceId: string;
  leader: boolean;
  queued: number;
  flags: { tokenValid: boolean; configValid: boolean; appKeyValid: boolean };
}

export interface TrackerWindow {
  dreamTracker: {
    report(event: { id: string; action: string; logmap?: Record<string, unknown> }): string | null;
    status(): Promise<TrackerStatus | null>;
    pendingCount(): number;
  };
}

export interface StoredEvent {
  entry_id: string;
  device_id: string;
  cold_start_id: string;
  oid: string;
  action: number;
  received_at: number;
  logmap: Record<string, unknown>;
}

const root = path.resolve(import.meta.dirname, '../../..');

/** Reads stored events with the operator CLI (`npm run tracking:export`) from the e2e server's database. */
export function exportedEvents(): StoredEvent[] {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set; run with tests/e2e/playwright.config.ts');
  const out = execFileSync(path.join(root, 'node_modules/.bin/tsx'), ['server/tracking/cli.ts', 'export'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: `sqlite:${path.join(dataDir, 'app.db')}`, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as StoredEvent);
}

export async function trackerStatus(page: Page): Promise<TrackerStatus> {
  return (await page.evaluate(() => (window as unknown as TrackerWindow).dreamTracker.status())) as TrackerStatus;
}

/** Waits until the page's tracker runs and its worker holds a token and config. */
export async function trackerReady(page: Page): Promise<void> {
  await page.waitForFunction(() => 'dreamTracker' in window);
  await expect.poll(async () => (await trackerStatus(page)).flags.configValid, { timeout: 15_000 }).toBe(true);
}

export async function openTab(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await trackerReady(page);
  return page;
}
