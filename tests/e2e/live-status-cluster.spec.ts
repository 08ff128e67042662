// Live status across instances in Chromium: the playground served by one api instance of the built server follows
// runs that another instance took and a worker process ran, over the status stream alone (PostgreSQL NOTIFY).
import { expect, test, type APIRequestContext } from '@playwright/test';
import { LIVE_STATUS, STORAGE_KEYS } from '../../src/lib/product-rules';
import { freshPostgres, postgresMissing, startClusterServer, type ClusterServer } from './support/cluster-servers';
import { accountsServerEnv, E2E_APP_PORT } from './support/accounts-env';
import { useMailbox } from './support/mailbox';
import { declineCookies } from './support/page-checks';
import { hydrated } from './support/sign-in';

const mailbox = useMailbox();
const POLL = '/api-playground/video_tools/v1/poll';
const GET_RESULT = '/api/getAsyncResult';

const missing = await postgresMissing();
let database: Awaited<ReturnType<typeof freshPostgres>> | undefined;
const servers: ClusterServer[] = [];
let env: Record<string, string> = {};
let a: ClusterServer;
let b: ClusterServer;

// CI (REQUIRE_TEST_SERVICES) always has PostgreSQL: there its absence fails the run. A laptop without it skips this
// one spec, saying why, since two instances can share tasks only through a shared database.
if (missing !== null && process.env.REQUIRE_TEST_SERVICES) {
  throw new Error(`the live status cluster spec needs PostgreSQL: ${missing}; REQUIRE_TEST_SERVICES is set`);
}
test.skip(missing !== null, `needs PostgreSQL (two instances share tasks only through it): ${missing}`);

test.beforeAll(async () => {
  // Two built servers starting on a busy machine.
  test.setTimeout(180_000);
  database = await freshPostgres();
  env = {
    DATABASE_URL: database.url,
    QUEUE: 'pg-boss',
    QUEUE_CHECK_S: '1',
    TASK_POLL_MS: '200',
    SECRET_KEY: 'e2e-live-status-cluster-secret-0123456789',
    DRAIN_DELAY_S: '0',
    // Sign-in codes go to the run's mailbox.
    SMTP_URL: accountsServerEnv(E2E_APP_PORT).SMTP_URL!,
    MAIL_FROM: accountsServerEnv(E2E_APP_PORT).MAIL_FROM!,
  };
  // The first one migrates the new database; then the second api instance.
  servers.push((a = await startClusterServer('api', env)));
  servers.push((b = await startClusterServer('api', env)));
});

test.afterAll(async () => {
  for (const server of servers.reverse()) await server.close();
  await database?.drop();
});

async function call(request: APIRequestContext, url: string, form: Record<string, string>, token?: string) {
  const body = (await (await request.post(url, { form, headers: token ? { token } : {} })).json()) as {
    code: number;
    msg: string;
    data: Record<string, string>;
  };
  expect(body.code, `${url}: ${body.msg}`).toBe(0);
  return body.data;
}

test("the playground on one api instance follows runs submitted through either instance and run by a worker, over A's stream alone", async ({
  page,
}) => {
  // A worker's start and two runs on a busy machine.
  test.setTimeout(240_000);
  // Signed in through instance A's email-code calls; the default API key for the submit through B.
  const email = `live-cluster-${Date.now()}@example.com`;
  const { attemptId } = await call(page.request, `${a.url}/user/code`, { email, type: 'login' });
  const { token, userId } = await call(page.request, `${a.url}/user/email/login`, {
    email,
    code: await mailbox.nextCode(email),
    attemptId: attemptId!,
  });
  await call(page.request, `${a.url}/user/infoUpdate`, { company: 'Live Status Ltd', channel: '' }, token);
  const { key } = await call(page.request, `${a.url}/apply/playground`, { userId: userId! }, token);

  // No worker yet: what is submitted waits queued, so the page must hear of its run from the stream.
  const viaB = (await (
    await page.request.post(`${b.url}/api/async/do_tts_common`, {
      headers: { authorization: `Bearer ${key}` },
      data: { text: 'Submitted through the second instance.', lan: 'en-US' },
    })
  ).json()) as { code: number; message: string; data: { taskId: string } };
  expect(viaB.code, viaB.message).toBe(0);

  await declineCookies(page);
  await page.addInitScript(
    (items) => {
      for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);
    },
    { [STORAGE_KEYS.userToken]: token!, [STORAGE_KEYS.userId]: userId!, [STORAGE_KEYS.hasRead]: `["${userId}"]` },
  );
  const requests: URL[] = [];
  page.on('request', (req) => requests.push(new URL(req.url())));
  await page.goto(`${a.url}/playground/speech`);
  await hydrated(page);
  const history = page.getByTestId('history');
  const throughB = history.locator(`[data-task-id="${viaB.data.taskId}"]`);
  await expect(throughB).toHaveAttribute('data-status', 'queued');

  await page.getByLabel('Text', { exact: true }).fill('Run through the first instance.');
  await page.getByRole('button', { name: 'Generate speech' }).click();
  const card = page.getByTestId('run-card').first();
  await expect(card).toHaveAttribute('data-phase', 'running');

  // The worker starts only now, on a process of its own: both runs finish there, and A hears of it by NOTIFY.
  servers.push(await startClusterServer('worker', env));
  await expect(card).toHaveAttribute('data-phase', 'succeeded', { timeout: 60_000 });
  await expect(card.getByTestId('result-audio')).toBeVisible();
  await expect(throughB).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
  const fromForm = history.locator('[data-task-id]').filter({ hasText: 'Run through the first instance.' });
  await expect(fromForm).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });

  // Every call went to instance A; the status came over its stream, with no poll of either kind.
  expect(new Set(requests.filter((u) => u.pathname.startsWith('/api')).map((u) => u.origin))).toEqual(
    new Set([new URL(a.url).origin]),
  );
  expect(requests.map((u) => u.pathname)).toContain(LIVE_STATUS.playgroundPath);
  expect(requests.filter((u) => u.pathname === POLL || u.pathname.startsWith(GET_RESULT))).toEqual([]);
});
