// Upload memory (run by bench/uploads.mjs under tsx): the server's peak RSS while 1, 4 and 12 uploads of ~100 MB run at once, beside bare node:http.
import { spawn } from 'node:child_process';
import { mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config';
import { migrateToLatest, openDatabase } from '../server/db';
import { createUser, type TestUser } from '../server/test-support/tasks';
import { startServer } from '../server/test-support/server-process';
import { paddedMp4, processMemory, resetPeakMemory } from '../server/test-support/big-media';

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
  const res = await fetch(`${url}/api-playground/file/v1/upload`, { method: 'POST', headers: { token: user.token }, body: form });
  await res.arrayBuffer();
  return res.status;
}

/** The bare baseline: a node:http server piping each body to a file. */
async function bare(count: number) {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'upload-bare.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
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

const rows: Array<Record<string, string | number>> = [];
for (const count of COUNTS) {
  // A fresh server per row, so each starts from the size a new process has, as a server under attack would.
  const data = path.join(dir, `data-${count}`);
  const env = {
    DATA_DIR: data,
    DATABASE_URL: `sqlite:${path.join(dir, `app-${count}.db`)}`,
    SECRET_KEY: 'uploads-bench-secret-uploads-bench-secret',
    // The caps would refuse most of 12 uploads from one account and one address: lifted here to measure memory.
    UPLOADS_PER_ACCOUNT: String(count),
    UPLOADS_PER_CLIENT: String(count),
  };
  const database = await openDatabase(env.DATABASE_URL);
  await migrateToLatest(database);
  const user = await createUser({ database, config: loadConfig({ ...env, LOG_LEVEL: 'silent' }) }, 100);
  await database.close();
  const server = await startServer(env);
  try {
    const ours = await measure(server.child.pid!, count, () => upload(server.url, user));
    const baseline = await bare(count);
    const ok = ours.statuses.filter((s) => s === 200).length;
    rows.push({
      'uploads at once': count,
      'file MB': +(FILE_BYTES / MB).toFixed(1),
      'RSS before MB': +(ours.before / MB).toFixed(0),
      'peak RSS MB': +(ours.peak / MB).toFixed(0),
      'growth MB': +(ours.growth / MB).toFixed(1),
      'growth per upload MB': +(ours.growth / count / MB).toFixed(1),
      answers: `${ok} × 200${ok < count ? `, ${ours.statuses.filter((s) => s !== 200).join(' ')}` : ''}`,
      'bare node:http growth MB': +(baseline.growth / MB).toFixed(1),
      goal: 'growth < 30 MB per upload, < 150 MB in all',
    });
  } finally {
    await server.stop('SIGKILL');
  }
}
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify(rows));
