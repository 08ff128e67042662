// Unit-test global set-up: builds the server once for the run, and the tests' server processes
// (server/test-support/server-process.ts) start that build as `npm start` does, instead of each transpiling the
// TypeScript again through tsx (about 1.4 s of CPU more per start: `npm run bench -- 'Process start'`).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildServer } from '../../scripts/build-server.mjs';

export default async function setup(): Promise<() => void> {
  // Inside the project, so the bundle's package imports resolve from node_modules as they do from dist-server/.
  const cache = path.resolve('node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(path.join(cache, 'test-server-'));
  process.env.TEST_SERVER_ENTRY = await buildServer(dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
