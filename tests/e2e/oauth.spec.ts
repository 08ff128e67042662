// Google-like (OIDC) and GitHub-like sign-in through local identity providers, and a forged-state callback that fails.
import { expect, test } from '@playwright/test';
import { startFakeIdps, type FakeIdps } from '../../server/test-support/fake-idp';
import { accountPorts, E2E_APP_PORT } from './support/accounts-env';
import { hydrated, openLogin, skipAboutYou } from './support/sign-in';

const ports = accountPorts(E2E_APP_PORT);
let idps: FakeIdps;

test.beforeAll(async () => (idps = await startFakeIdps(ports)));
test.afterAll(() => idps.close());

for (const provider of ['Google', 'GitHub'] as const) {
  test(`signs in with ${provider} and returns to the page the sign-in started from`, async ({ page }) => {
    const idp = provider === 'Google' ? idps.google : idps.github;
    const email = `${provider.toLowerCase()}-${Date.now()}@example.com`;
    idp.identity = { email, verified: true, name: `${provider} Person` };
    await page.goto('/pricing');
    await (await openLogin(page)).getByRole('button', { name: provider }).click();
    // Provider → API-host callback → / (state checked, code exchanged) → the stored redirect path.
    await page.waitForURL('**/pricing');
    await hydrated(page);
    await skipAboutYou(page);
    await expect(page.getByRole('button', { name: /Account menu/ })).toContainText('0 credits');
    const stored = await page.evaluate(() => ({
      loginType: localStorage.getItem('loginType'),
      token: localStorage.getItem('userToken'),
    }));
    expect(stored.loginType).toBe(provider.toLowerCase());
    expect(stored.token).toBeTruthy();
    const info = await page.request.post('/user/info', { headers: { token: stored.token! } });
    expect((await info.json()).data.userEmail).toBe(email);
  });
}

test('a callback with a forged state signs nobody in and never reaches the provider', async ({ page }) => {
  await page.goto('/playground');
  // This tab started a Google sign-in of its own, so it holds a state; the attacker's link carries another.
  await page.evaluate(() => {
    localStorage.setItem('loginType', 'google');
    sessionStorage.setItem('oauthState', 'dreamapi.this-tab-made-this-state-1234');
    sessionStorage.setItem('oauthVerifier', 'v'.repeat(43));
  });
  const before = idps.google.tokenRequests;
  await page.goto('/?code=attacker-code&state=dreamapi.forged-by-an-attacker-5678');
  await expect(page.getByRole('alert')).toContainText('Login Failed');
  expect(await page.evaluate(() => localStorage.getItem('userToken'))).toBeNull();
  expect(idps.google.tokenRequests).toBe(before);
  // The failed state is spent: the address bar no longer carries the code.
  expect(new URL(page.url()).search).toBe('');
});
