// Test-only: the real server (server/main.ts, built once per test run) in its own process on a free port, its JSON
// log lines, and a fake speech provider that answers when told.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { listenLocal, readBody, type LocalServer } from './provider-fakes';
import { silentWav } from './wav';

export interface ServerProcess {
  /** http://127.0.0.1:<port> */
  url: string;
  child: ChildProcess;
  /** Every log line so far, parsed. */
  logs: Array<Record<string, unknown> & { msg: string }>;
  /** The exit code once it exits. */
  exited: Promise<number | null>;
  /** Sends `signal` and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** What runs the server: the test run's build (tests/setup/built-server.ts) if any, else server/main.ts in tsx. */
function serverArgs(): string[] {
  const built = process.env.TEST_SERVER_ENTRY;
  return built ? [built] : ['--import', 'tsx', path.resolve('server/main.ts')];
}

/** Starts the server as `npm start` would (without the site build), with PORT=0 on 127.0.0.1 and `env` on top. */
export function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, serverArgs(), {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', SITE_DIR: './dist', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: ServerProcess['logs'] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as ServerProcess['logs'][number];
        logs.push(entry);
        if (entry.msg === 'listening') {
          resolve({
            url: `http://127.0.0.1:${String(entry.port)}`,
            child,
            logs,
            exited,
            stop: (signal = 'SIGTERM') => {
              child.kill(signal);
              return exited;
            },
          });
        }
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then((code) =>
      reject(new Error(`the server exited with ${code} before listening: ${JSON.stringify(logs.slice(-5))}`)),
    );
  });
}

/** A fake of ElevenLabs' text-to-speech that holds every request until `release()`, then answers one second of WAV. */
export interface GatedSpeechProvider extends LocalServer {
  /** Requests received so far. */
  requests: number;
  release(): void;
}

export async function gatedSpeechProvider(): Promise<GatedSpeechProvider> {
  let open = false;
  let waiting: Array<() => void> = [];
  const state = { requests: 0 };
  const local = await listenLocal(async (req, res) => {
    await readBody(req);
    state.requests++;
    if (!open) await new Promise<void>((resolve) => waiting.push(resolve));
    res.writeHead(200, { 'content-type': 'audio/wav' });
    res.end(silentWav(1, 22050));
  });
  return {
    ...local,
    get requests() {
      return state.requests;
    },
    release() {
      open = true;
      for (const w of waiting) w();
      waiting = [];
    },
  };
}

/** Polls `check` every 50 ms until it is true (a test's own timeout bounds the wait). */
export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50));
}
