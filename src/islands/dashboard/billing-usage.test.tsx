// Dashboard on the real server: readable billing rows with task links, and the chart of runs and credits used per day
// and feature.
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitForTask } from '../../../server/test-support/tasks';
import { USAGE } from '../../lib/product-rules';
import BillingTab from './BillingTab';
import UsageChart from './UsageChart';
import { postData, signedInPageEachTest } from '../shared/page.fixtures';

const page = signedInPageEachTest(500);

const post = (path: string, body: unknown, headers?: Record<string, string>) => postData(page, path, body, headers);
async function run(path: string, body: unknown): Promise<string> {
  const id = (await post(`/api-playground${path}`, body)).taskId as string;
  await waitForTask(page.t, id);
  return id;
}
const speak = (text: string, quality: 'common' | 'pro' = 'common') =>
  run('/speech/v1/tts', { text, voiceId: 'en-us-female-1', quality });
const converse = () =>
  run('/speech/v1/dialogue', { lines: [{ speaker: 'A', text: 'Hi' }], voices: { A: 'en-us-female-1' } });

describe('BillingTab', () => {
  it('names the feature of each task row, says what happened to the credits and links to the task; no scroll box', async () => {
    const done = await speak('Hello');
    const failed = await converse();
    const { container } = render(<BillingTab />);
    const table = await screen.findByTestId('billing-table');
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.textContent);
    expect(rows.some((r) => r?.includes('Dialogue') && r.includes('Refunded 1: the task failed'))).toBe(true);
    expect(rows.some((r) => r?.includes('Dialogue') && r.includes('Held 1 → refunded 1 (failed)'))).toBe(true);
    expect(rows.some((r) => r?.includes('Speech · Common') && r.includes('Held 1 → charged 1'))).toBe(true);
    expect(rows.some((r) => r?.includes('Credit grant'))).toBe(true);
    expect(rows.join(' ')).not.toContain('Generation (held)');
    const links = within(table)
      .getAllByRole('link', { name: 'View task' })
      .map((a) => a.getAttribute('href'));
    expect(links).toContain(`/playground/speech?task=${done}#history-title`);
    expect(links).toContain(`/playground/dialogue?task=${failed}#history-title`);
    // Every cell is labelled for the stacked phone layout, and nothing wraps the table in a scroll area.
    expect([...table.querySelectorAll('td')].every((td) => td.dataset.label)).toBe(true);
    expect(table.parentElement!.getAttribute('class') ?? '').not.toMatch(/wrap/i);
    expect(container.querySelector('[tabindex]')).toBeNull();
  });
});

describe('UsageChart', () => {
  it('draws one bar segment per feature and day, with a legend of totals, in credits or in runs', async () => {
    await speak('a'.repeat(300));
    await speak('short', 'pro');
    await converse();
    render(<UsageChart />);
    const chart = await screen.findByTestId('usage-chart');
    const segments = () => [...chart.querySelectorAll('rect')];
    expect(
      segments()
        .map((r) => r.dataset.feature)
        .sort(),
    ).toEqual(['tts-common', 'tts-pro']);
    expect(segments().every((r) => Number(r.getAttribute('height')) > 0)).toBe(true);
    expect(chart.querySelector('title')!.textContent).toBe(
      `Credits used per day over the last ${USAGE.days} days: 3 in all`,
    );
    expect(screen.getByText('Speech · Common: 2')).toBeTruthy();
    expect(screen.getByText('Speech · Pro: 1')).toBeTruthy();
    expect(screen.getByTestId('usage-total').textContent).toBe('3 runs · 3 credits');
    expect(page.net.bodiesTo('/apply/usage')).toEqual([{ tzOffset: new Date().getTimezoneOffset() }]);

    // Runs count the refunded dialogue too.
    fireEvent.click(screen.getByRole('button', { name: 'Runs' }));
    expect(screen.getByRole('button', { name: 'Runs' }).getAttribute('aria-pressed')).toBe('true');
    expect(
      segments()
        .map((r) => r.dataset.feature)
        .sort(),
    ).toEqual(['dialogue', 'tts-common', 'tts-pro']);
    expect(chart.querySelector('title')!.textContent).toBe(`Runs per day over the last ${USAGE.days} days: 3 in all`);
    expect(screen.getByText('Dialogue: 1')).toBeTruthy();
  });

  it('says so when nothing was run', async () => {
    render(<UsageChart />);
    expect(await screen.findByText(/No runs in the last 30 days/)).toBeTruthy();
    expect(screen.queryByTestId('usage-chart')).toBeNull();
  });
});
