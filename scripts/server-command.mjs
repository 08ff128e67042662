// How the API server process is started (package.json "start", benches): one place, so every caller runs what production runs.
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

export function serverCommand() {
  return { command: process.execPath, args: [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'server/main.ts')] };
}
