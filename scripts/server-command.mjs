// How the API server process is started (npm start, benches): the built server (scripts/build-server.mjs) run by Node
// itself.
import path from 'node:path';
import { buildServer, SERVER_OUT } from './build-server.mjs';

const root = path.resolve(import.meta.dirname, '..');

/**
 * Builds the server (under a second) and answers the command that runs it; `loader: 'tsx'` runs the TypeScript through
 * tsx instead, for comparison.
 */
export async function serverCommand({ loader = 'built' } = {}) {
  if (loader === 'tsx')
    return { command: process.execPath, args: ['--import', 'tsx', path.join(root, 'server/main.ts')] };
  await buildServer();
  return { command: process.execPath, args: [path.join(SERVER_OUT, 'main.mjs')] };
}
