// Starts helper programs (ffmpeg, ffprobe) tied to the server's life and under resource limits: the kernel ends them.
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

/*
 * Why setpriv --pdeathsig: a server killed with SIGKILL (the OOM killer, `kill -9`, a container runtime's
 * last resort) runs no JavaScript, so no exit handler, process group or watchdog of ours can stop its children.
 * Only the kernel can: prctl(PR_SET_PDEATHSIG) makes it send a signal to a process the moment its parent dies.
 * Node cannot call prctl, and setpriv (util-linux, installed on Debian and Ubuntu) sets it and then execs the
 * program in its own place, so the pid Node sees is ffmpeg's own pid (kill() and exit codes work as before)
 * and the setting survives the exec. Limits: the signal follows the thread that spawned (Node spawns from its
 * main thread); a server dying in the instant between fork and prctl still leaves that one child; without
 * setpriv, or one too old for --pdeathsig (util-linux before 2.33), or off Linux, children are spawned plainly.
 */

const SETPRIV_CANDIDATES = ['/usr/bin/setpriv', '/bin/setpriv'];

function findSetpriv(): string | null {
  const onPath = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, 'setpriv'));
  for (const file of [...SETPRIV_CANDIDATES, ...onPath]) {
    try {
      accessSync(file, constants.X_OK);
    } catch {
      continue;
    }
    // --pdeathsig must be known to this setpriv, or every spawn through it would fail.
    const help = spawnSync(file, ['--help'], { encoding: 'utf8', timeout: 5_000 });
    return help.status === 0 && help.stdout.includes('--pdeathsig') ? file : null;
  }
  return null;
}

let setpriv: string | null | undefined;

/** CPU seconds and address-space bytes a child may use (setrlimit RLIMIT_CPU and RLIMIT_AS). */
export interface SpawnLimits {
  cpuSeconds: number;
  addressSpaceBytes: number;
}

/*
 * Why prlimit: Node cannot call setrlimit for a child. util-linux prlimit (next to setpriv on every Debian) sets
 * the limits and execs the program in its own place, like setpriv, so the pid and exit code stay ffmpeg's and
 * the limits are inherited by nothing else. Past RLIMIT_CPU the kernel sends SIGXCPU, then SIGKILL.
 */
const PRLIMIT_CANDIDATES = ['/usr/bin/prlimit', '/bin/prlimit'];
let prlimit: string | null | undefined;

function findPrlimit(): string | null {
  for (const file of PRLIMIT_CANDIDATES) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      /* keep looking */
    }
  }
  return null;
}

/** Whether limits are applied here: 'prlimit', or 'none' (off Linux, or util-linux without prlimit). */
export function spawnLimitMethod(): 'prlimit' | 'none' {
  if (prlimit === undefined) prlimit = process.platform === 'linux' ? findPrlimit() : null;
  return prlimit ? 'prlimit' : 'none';
}

/** How children are tied to the server here: 'setpriv' (killed with it) or 'plain' (may outlive a SIGKILL). */
export function tiedSpawnMethod(): 'setpriv' | 'plain' {
  if (setpriv === undefined) setpriv = process.platform === 'linux' ? findSetpriv() : null;
  return setpriv ? 'setpriv' : 'plain';
}

/**
 * Spawns `bin args` with stdout and stderr piped; on Linux the kernel sends it SIGKILL if the server dies, and
 * with `limits` it runs under them.
 */
export function spawnTied(
  bin: string,
  args: readonly string[],
  limits?: SpawnLimits,
): ChildProcessByStdio<null, Readable, Readable> {
  // Each glibc malloc arena reserves 64 MB of address space; a many-threaded decode would spend RLIMIT_AS on them.
  const options = {
    stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, MALLOC_ARENA_MAX: '2' },
  };
  const limited =
    limits && spawnLimitMethod() === 'prlimit'
      ? [
          prlimit!,
          `--cpu=${Math.ceil(limits.cpuSeconds)}`,
          `--as=${Math.floor(limits.addressSpaceBytes)}`,
          '--',
          bin,
          ...args,
        ]
      : [bin, ...args];
  if (tiedSpawnMethod() === 'setpriv') return spawn(setpriv!, ['--pdeathsig', 'SIGKILL', '--', ...limited], options);
  return spawn(limited[0]!, limited.slice(1), options);
}
