// Upload memory (run by bench/uploads.mjs under tsx): server peak RSS for 1, 4 and 12 uploads of ~100 MB at once, and
// one with S3, beside bare node:http.
import { spawn } from 'node:child_process';
import { mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config';
import { migrateToLatest, openDatabase } from '../server/db';
import { createUser, type TestUser } from '../server/test-support/tasks';
import { startServer } from '../server/test-support/server-process';
import { paddedMp4, processMemory, resetPeakMemory } from '../server/test-support/big-media';
import { startTestS3 } from '../server/test-support/s3';

const MB = 1024 * 1024;
const FILE_BYTES = 100 * MB - 64 * 1024;
const COUNTS = [1, 4, 12];
const dir = mkdtempSync(path.join(tmpdir(), 'uploads-bench-'));
const video = path.join(dir, 'video.mp4');
await paddedMp4(video, FILE_BYTES);

/** Sends `count` uploads at once to `url` and measures the process's peak growth over its resident size before. */
async function measure(pid: number, count: number, send: () => Promise<number>) {
  await resetPeakMemory(pid);
  const before = await processMemory(pid);
  const statuses = await Promise.all(Array.from({ length: count }, send));
  const after = await processMemory(pid);
  return { before: before.rss, peak: after.peak, growth: after.peak - before.rss, statuses };
}

async function upload(url: string, user: TestUser): Promise<number> {
  const form = new FormData();
  form.set('scene', 'video');
  form.set('file', await openAsBlob(video, { type: 'video/mp4' }), 'video.mp4');
  const res = await fetch(`${url}/api-playground/file/v1/upload`, {
    method: 'POST',
    headers: { token: user.token },
    body: form,
  });
  await res.arrayBuffer();
  return res.status;
}

/**
 * Sends the video to the bucket with a policy of the public API; answers the finish call, which the server works on.
 */
async function sentToBucket(url: string, user: TestUser): Promise<() => Promise<number>> {
  const call = (name: string, body: object) =>
    fetch(`${url}/api/file/v1/${name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const policy = (
    (await (await call('get_policy', { scene: 'video' })).json()) as {
      data: { reqId: string; host: string; fields: Record<string, string> };
    }
  ).data;
  const form = new FormData();
  for (const [name, value] of Object.entries(policy.fields))
    form.set(name, name === 'Content-Type' ? 'video/mp4' : value);
  form.set('file', await openAsBlob(video, { type: 'video/mp4' }), 'video.mp4');
  const sent = await fetch(policy.host, { method: 'POST', body: form });
  if (!sent.ok) throw new Error(`the bucket refused the upload: HTTP ${sent.status}`);
  return async () => {
    const res = await call('policy_upload_finish', { reqId: policy.reqId });
    await res.arrayBuffer();
    return res.status;
  };
}

/** The bare baseline: a node:http server piping each body to a file. */
async function bare(count: number) {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'upload-bare.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve) =>
    child.stdout.once('data', (line: Buffer) => resolve((JSON.parse(line.toString()) as { port: number }).port)),
  );
  try {
    return await measure(child.pid!, count, async () => {
      const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: await openAsBlob(video) });
      await res.arrayBuffer();
      return res.status;
    });
  } finally {
    child.kill('SIGKILL');
  }
}

/** A fresh server on a database and data folder of its own (`name` tells them apart), and one funded account on it. */
async function freshServer(name: string, settings: Record<string, string>) {
  const env = {
    DATA_DIR: path.join(dir, `data-${name}`),
    DATABASE_URL: `sqlite:${path.join(dir, `app-${name}.db`)}`,
    SECRET_KEY: 'uploads-bench-secret-uploads-bench-secret',
    ...settings,
  };
  const database = await openDatabase(env.DATABASE_URL);
  await migrateToLatest(database);
  const user = await createUser({ database, config: loadConfig({ ...env, LOG_LEVEL: 'silent' }) }, 100);
  await database.close();
  return { user, server: await startServer(env) };
}

const mb = (bytes: number, digits = 1) => +(bytes / MB).toFixed(digits);

/** The columns of every row from the file to the server's growth per upload, for `count` uploads measured at once. */
const memoryColumns = (figures: Awaited<ReturnType<typeof measure>>, count: number) => ({
  'file MB': mb(FILE_BYTES),
  'RSS before MB': mb(figures.before, 0),
  'peak RSS MB': mb(figures.peak, 0),
  'growth MB': mb(figures.growth),
  'growth per upload MB': mb(figures.growth / count),
});

const rows: Array<Record<string, string | number>> = [];
for (const count of COUNTS) {
  // A fresh server per row, so each starts from the size a new process has, as a server under attack would.
  const { user, server } = await freshServer(String(count), {
    // The caps would refuse most of 12 uploads from one account and one address: lifted here to measure memory.
    UPLOADS_PER_ACCOUNT: String(count),
    UPLOADS_PER_CLIENT: String(count),
  });
  try {
    const ours = await measure(server.child.pid!, count, () => upload(server.url, user));
    const baseline = await bare(count);
    const ok = ours.statuses.filter((s) => s === 200).length;
    rows.push({
      'uploads at once': count,
      storage: 'disk (DATA_DIR)',
      ...memoryColumns(ours, count),
      answers: `${ok} × 200${ok < count ? `, ${ours.statuses.filter((s) => s !== 200).join(' ')}` : ''}`,
      'bare node:http growth MB': mb(baseline.growth),
      goal: 'growth < 30 MB per upload, < 150 MB in all',
    });
  } finally {
    await server.stop('SIGKILL');
  }
}

// With S3 configured (s3rver in this process, so its memory is not the server's): an upload through the server goes
// from the scratch file to the bucket in parts, a few at once; one sent straight to the bucket is fetched and measured
// on finish. One upload each, on a fresh server.
{
  const s3 = await startTestS3('uploads-bench');
  const { user, server } = await freshServer('s3', s3.env('bench/'));
  try {
    const baseline = await bare(1);
    const through = await measure(server.child.pid!, 1, () => upload(server.url, user));
    const direct = await measure(server.child.pid!, 1, await sentToBucket(server.url, user));
    for (const [route, figures] of [
      ['through the server, then to S3 in parts', through],
      ['straight to S3; finish fetches and probes it', direct],
    ] as const) {
      rows.push({
        'uploads at once': 1,
        storage: `S3: ${route}`,
        ...memoryColumns(figures, 1),
        answers: figures.statuses.join(' '),
        'bare node:http growth MB': mb(baseline.growth),
        goal: 'growth < 30 MB',
      });
    }
  } finally {
    await server.stop('SIGKILL');
    await s3.close();
  }
}
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify(rows));
