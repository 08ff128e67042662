// The servers scripts/screenshots.mjs shoots: the real server on embedded defaults (plus any overrides) in a temporary
// data folder, a local SMTP mailbox for the sign-in codes, and a signed-in user with credits and a few finished runs.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../server/test-support/free-port.ts';
import { startTestSmtp } from '../server/test-support/smtp.ts';

const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
const EMAIL = 'screenshots@dreamapi.test';
/** Runs made at sign-in: the history, the usage panel and billing have rows to show. */
const RUN_TEXTS = ['Hello from the screenshots.', 'A second run for the usage panel.', 'And a third one.'];

/** A real SMTP server that keeps the sign-in codes mailed to each address (the latest per address). */
export async function startMailbox() {
  const port = await freePort();
  const codes = new Map();
  const server = await startTestSmtp((raw, recipients) => {
    const code = /sign-in code(?: is|:) (\d{4})/.exec(raw)?.[1];
    for (const rcpt of recipients) if (code) codes.set(rcpt, code);
  }, port);
  return {
    port,
    async code(email) {
      for (let i = 0; i < 200; i++) {
        if (codes.has(email)) return codes.get(email);
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no sign-in code was mailed to ${email}`);
    },
    forget: (email) => codes.delete(email),
    close: () => server.close(),
  };
}

async function waitForServer(base, child) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not answer /healthz within 60 s');
}

/** Starts the server from source on a free port with its own data folder; `stop()` ends it and removes the folder. */
export async function startServer(siteDir, smtpPort, overrides) {
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dreamapi-screenshots-'));
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    SITE_DIR: siteDir,
    PUBLIC_URL: base,
    LOG_LEVEL: 'warn',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    ...overrides,
  };
  const child = spawn(process.execPath, [tsx, 'server/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForServer(base, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, env, stop };
}

/** A product API call (form-encoded, SPEC.md §7) that returns `data` or throws the envelope's message. */
async function call(base, route, fields, headers = {}) {
  const res = await fetch(base + route, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
  });
  const body = await res.json();
  if (body.code !== 0) throw new Error(`${route}: ${body.msg}`);
  return body.data;
}

/** Waits until the account has no run left unfinished, so the pages show them done. */
async function runsFinished(base, token) {
  for (let i = 0; i < 200; i++) {
    const res = await fetch(`${base}/api-playground/video_tools/v1/get_list`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token },
      body: JSON.stringify({ page: 1, pageSize: 20 }),
    });
    const list = (await res.json()).data?.list ?? [];
    if (list.every((t) => t.status !== 'queued' && t.status !== 'running')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Signs EMAIL in on `server` with the mailed code, gives it credits and a few finished speech runs, and returns its
 * stored session (the localStorage keys of SPEC.md §3).
 */
export async function signIn(server, mailbox) {
  const { base, env } = server;
  mailbox.forget(EMAIL);
  const { attemptId } = await call(base, '/user/code', { email: EMAIL, type: 'login' });
  const code = await mailbox.code(EMAIL);
  const { token, userId } = await call(base, '/user/email/login', { email: EMAIL, code, attemptId });
  // The first-login questions are answered, so their modal covers no page.
  await call(base, '/user/infoUpdate', { company: 'Screenshots Ltd', channel: '' }, { token }).catch(() => undefined);
  execFileSync(process.execPath, [tsx, 'server/admin/cli.ts', 'grant', EMAIL, '500', '--note', 'screenshots'], {
    cwd: root,
    env,
    stdio: 'ignore',
  });
  const { key } = await call(base, '/apply/playground', { userId }, { token });
  // A failure here only leaves those pages emptier.
  for (const text of RUN_TEXTS)
    await fetch(`${base}/api/async/do_tts_common`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    }).catch(() => undefined);
  await runsFinished(base, token);
  return { userToken: token, userId, userKey: key, hasRead: JSON.stringify([userId]) };
}
