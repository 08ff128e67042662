// The dashboard's usage panel counts runs as well as credits, by day and feature (free runs are counted the same way:
// server/routes/usage.test.ts runs them on eSpeak; this run's server charges no-model runs in full).
import { expect, test } from '@playwright/test';
import { signInThroughApi } from './support/api-sign-in';
import { useMailbox } from './support/mailbox';
import { declineCookies } from './support/page-checks';
import { hydrated } from './support/sign-in';

const mailbox = useMailbox();

test.beforeEach(({ page }) => declineCookies(page));

for (const width of [390, 1440]) {
  test(`at ${width} px, runs show in the usage panel by day and feature, in runs as well as credits`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const token = await signInThroughApi(page, request, mailbox, `usage-${width}`);
    for (const text of ['First run.', 'Second run.']) {
      const res = await request.post('/api-playground/speech/v1/tts', {
        headers: { token },
        data: { text, voiceId: 'en-us-female-1' },
      });
      expect(((await res.json()) as { code: number }).code).toBe(0);
    }
    await page.goto('/dashboard');
    await hydrated(page);
    await expect(page.getByTestId('usage-total')).toHaveText(/^2 runs · \d+ credits?$/);
    await page.getByRole('button', { name: 'Runs' }).click();
    await expect(page.getByRole('button', { name: 'Runs' })).toHaveAttribute('aria-pressed', 'true');
    const chart = page.getByTestId('usage-chart');
    await expect(chart.locator('rect[data-feature="tts-common"]')).toHaveCount(1);
    await expect(page.getByText(/^Speech · Common: 2$/)).toBeVisible();
    await expect(page.getByText(/No runs in the last/)).toHaveCount(0);
  });
}
