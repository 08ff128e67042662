// A server killed with SIGKILL takes its ffmpeg children with it, and its next start empties DATA_DIR/tmp of what it
// left.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { ffmpegTools } from './ffmpeg';
import { tiedSpawnMethod } from './tied-spawn';
import { prepareWorkRoot, WORK_ROOT_MARKER } from './workdir';

const here = path.dirname(new URL(import.meta.url).pathname);
const dataDir = mkdtempSync(path.join(tmpdir(), 'tied-spawn-test-'));
const started: number[] = [];
afterAll(() => {
  // Should the feature be broken, the ffmpeg this test started must not keep running after it.
  for (const pid of started) if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Running, and not a zombie waiting to be reaped (a dead process whose pid still answers kill(pid, 0)). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Pids of the processes whose parent is `ppid` and whose program is `comm`. */
function childrenOf(ppid: number, comm: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === ppid && name === comm) found.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe.runIf(process.platform === 'linux')('children tied to the server', () => {
  it('setpriv is used here (Debian ships it in util-linux)', () => {
    expect(tiedSpawnMethod()).toBe('setpriv');
  });

  it('kill -9 of the server ends its ffmpeg, and the start sweep empties DATA_DIR/tmp', async () => {
    expect(ffmpegTools()).not.toBeNull();
    const workRoot = path.join(dataDir, 'tmp');
    const script = path.join(dataDir, 'server.mts');
    // A stand-in server: prepares its work root as main.ts does, then renders into a work folder for ten minutes.
    writeFileSync(
      script,
      `import path from 'node:path';
import { ffmpegTools, runTool } from ${JSON.stringify(path.join(here, 'ffmpeg.ts'))};
import { prepareWorkRoot, withWorkDir } from ${JSON.stringify(path.join(here, 'workdir.ts'))};
await prepareWorkRoot(${JSON.stringify(workRoot)});
await withWorkDir('preview-', async (dir) => {
  console.log(dir);
  await runTool(ffmpegTools().ffmpeg, ['-v', 'error', '-re', '-f', 'lavfi', '-i', 'sine=d=600', '-y', path.join(dir, 'out.wav')]);
});
`,
    );
    const server = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((r) => server.once('exit', r));
    const workDir = await new Promise<string>((resolve) =>
      createInterface({ input: server.stdout }).once('line', resolve),
    );
    let ffmpeg: number | undefined;
    expect(
      await until(() => (ffmpeg = childrenOf(server.pid!, 'ffmpeg')[0]) !== undefined, 15_000),
      'ffmpeg started',
    ).toBe(true);
    started.push(ffmpeg!);
    expect(await until(() => existsSync(path.join(workDir, 'out.wav')), 15_000)).toBe(true);

    server.kill('SIGKILL');
    await exited;
    expect(await until(() => !alive(ffmpeg!), 10_000), `ffmpeg ${ffmpeg} outlived the killed server`).toBe(true);

    // What the killed server left behind is still there until the next start sweeps it.
    expect(existsSync(workDir)).toBe(true);
    await prepareWorkRoot(workRoot);
    expect(readdirSync(workRoot)).toEqual([WORK_ROOT_MARKER]);
  }, 60_000);
});

describe('the start sweep', () => {
  it('empties only a folder that is its own; a foreign folder is left alone and the start refused', async () => {
    const ours = path.join(dataDir, 'ours', 'tmp');
    await prepareWorkRoot(ours);
    mkdirSync(path.join(ours, 'preview-abc', 'deep'), { recursive: true });
    writeFileSync(path.join(ours, 'probe-left'), 'x');
    await prepareWorkRoot(ours);
    expect(readdirSync(ours)).toEqual([WORK_ROOT_MARKER]);

    const foreign = path.join(dataDir, 'foreign', 'tmp');
    mkdirSync(foreign, { recursive: true });
    writeFileSync(path.join(foreign, 'notes.txt'), 'keep me');
    await expect(prepareWorkRoot(foreign)).rejects.toThrow(/did not put there/);
    expect(readFileSync(path.join(foreign, 'notes.txt'), 'utf8')).toBe('keep me');
  });
});
