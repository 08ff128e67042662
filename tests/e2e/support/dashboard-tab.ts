// e2e: opening a dashboard tab as a user does, waiting until it is the selected one.
import { expect, type Page } from '@playwright/test';

export async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}
