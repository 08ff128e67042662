// Share links: an owner's opt-in public link to one result; viewed without an account; signed, expiring, revocable.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HISTORY_MESSAGES, MEDIA_LIMITS, SHARE_LINKS } from '../../src/lib/product-rules';
import { createOkBadTestApp, createUser, waitForTask, type TasksTestApp, type TestUser } from '../test-support/tasks';
import { postJson } from '../test-support/post-json';

let t: TasksTestApp;
let user: TestUser;

beforeEach(async () => {
  t = await createOkBadTestApp({ SITE_URL: 'https://site.example' });
  user = await createUser(t, 100);
});
afterEach(async () => {
  vi.useRealTimers();
  await t.close();
});

const call = (path: string, body: unknown, headers: Record<string, string> = { token: user.token }) =>
  postJson(t.app, path, body, headers);
async function view(url: string) {
  const token = new URL(url).searchParams.get(SHARE_LINKS.tokenParam)!;
  const res = await t.app.request(`/share/v1/view?${SHARE_LINKS.tokenParam}=${encodeURIComponent(token)}`);
  return {
    status: res.status,
    cache: res.headers.get('cache-control'),
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    body: (await res.json()) as { code: number; msg: string; data: any },
  };
}
async function speak(text: string) {
  const id = (await call('/api-playground/speech/v1/tts', { text, voiceId: 'en-us-female-1' })).body.data
    .taskId as string;
  await waitForTask(t, id);
  return id;
}

describe('share links', () => {
  it('makes a public page link that shows the result and what it was made from, to anyone, until revoked', async () => {
    const taskId = await speak('Shared words');
    const made = await call('/share/v1/create', { taskId, days: 7 });
    expect(made.status).toBe(200);
    const link = made.body.data;
    expect(link.url).toMatch(
      new RegExp(`^https://site\\.example${SHARE_LINKS.pagePath}\\?t=[\\w-]+\\.[0-9a-z]+\\.[\\w-]+$`),
    );
    // The results are kept 7 days from when they were made, and the link never outlives them.
    const media = await t.database.db
      .selectFrom('media')
      .select('expires_at')
      .where('task_id', '=', taskId)
      .executeTakeFirstOrThrow();
    expect(link.expiresAt).toBe(Number(media.expires_at));

    const seen = await view(link.url);
    expect(seen.status).toBe(200);
    expect(seen.cache).toBe('no-store');
    expect(seen.body.data).toMatchObject({ feature: 'tts-common', summary: 'Shared words', expiresAt: link.expiresAt });
    expect(seen.body.data.outputs).toHaveLength(1);
    const file = await t.app.request(
      new URL(seen.body.data.outputs[0].url).pathname + new URL(seen.body.data.outputs[0].url).search,
    );
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('audio/wav');
    // Nothing about the account is in the answer.
    expect(JSON.stringify(seen.body.data)).not.toContain(user.id);

    expect((await call('/share/v1/list', { taskId })).body.data.list.map((l: { id: string }) => l.id)).toEqual([
      link.id,
    ]);
    expect((await call('/share/v1/revoke', { shareId: link.id })).status).toBe(200);
    expect(await view(link.url)).toMatchObject({ status: 404, body: { msg: HISTORY_MESSAGES.shareNotFound } });
    // The file links the page handed out stop with it, and they cannot be turned into plain links by dropping the
    // share.
    const shared = new URL(seen.body.data.outputs[0].url);
    expect((await t.app.request(shared.pathname + shared.search)).status).toBe(403);
    shared.searchParams.delete('share');
    expect((await t.app.request(shared.pathname + shared.search)).status).toBe(403);
    expect((await call('/share/v1/list', { taskId })).body.data.list).toEqual([]);
  });

  it('refuses forged, altered and expired tokens', async () => {
    const taskId = await speak('Short-lived');
    const link = (await call('/share/v1/create', { taskId, days: 1 })).body.data;
    const token = new URL(link.url).searchParams.get('t')!;
    const [id, exp, sig] = token.split('.');
    const later = (parseInt(exp!, 36) + 1000).toString(36);
    // The signature's first character changed (never to itself): it carries six whole bits of the HMAC.
    const altered = `${sig![0] === 'x' ? 'y' : 'x'}${sig!.slice(1)}`;
    for (const forged of [`${id}.${exp}.${altered}`, `${id}.${later}.${sig}`, 'nonsense', '']) {
      const res = await t.app.request(`/share/v1/view?t=${encodeURIComponent(forged)}`);
      expect(res.status).toBe(404);
    }
    expect(link.expiresAt - Date.now()).toBeLessThanOrEqual(SHARE_LINKS.dayMs);
    vi.useFakeTimers({ now: link.expiresAt + 1, toFake: ['Date'] });
    expect((await view(link.url)).status).toBe(404);
  });

  it('shares only the owner’s succeeded tasks with kept results, up to the per-task limit; deleting the task ends its links', async () => {
    const failed = (
      await call('/api-playground/speech/v1/dialogue', {
        lines: [{ speaker: 'A', text: 'Hi' }],
        voices: { A: 'en-us-female-1' },
      })
    ).body.data.taskId;
    await waitForTask(t, failed);
    expect(await call('/share/v1/create', { taskId: failed })).toMatchObject({
      status: 409,
      body: { msg: HISTORY_MESSAGES.shareNotShareable },
    });

    const taskId = await speak('Mine');
    const other = await createUser(t, 0);
    expect((await call('/share/v1/create', { taskId }, { token: other.token })).status).toBe(404);
    expect((await call('/share/v1/create', { taskId, days: 30 })).body.msg).toBe(
      `days: must be one of ${SHARE_LINKS.ttlDays.join(', ')}`,
    );
    expect((await call('/share/v1/create', { taskId }, {})).status).toBe(401);

    const links = [];
    for (let i = 0; i < SHARE_LINKS.perTask; i++) links.push((await call('/share/v1/create', { taskId })).body.data);
    expect(await call('/share/v1/create', { taskId })).toMatchObject({
      status: 409,
      body: { msg: HISTORY_MESSAGES.shareTooMany },
    });

    await call('/api-playground/video_tools/v1/delete', { taskId });
    expect((await view(links[0].url)).status).toBe(404);
    expect(await t.database.db.selectFrom('share_links').selectAll().execute()).toEqual([]);
  });

  it('stops showing a result once retention removed its files', async () => {
    const taskId = await speak('Gone soon');
    const link = (await call('/share/v1/create', { taskId })).body.data;
    await t.database.db
      .updateTable('media')
      .set({ expires_at: Date.now() - 1 })
      .where('task_id', '=', taskId)
      .execute();
    expect((await view(link.url)).status).toBe(404);
    expect(MEDIA_LIMITS.retentionMs).toBeGreaterThan(SHARE_LINKS.dayMs);
  });
});
