// `npm run dev`: Astro's dev server for the site and the API host under tsx watch, both with hot reload.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const apiPort = process.env.PORT || '8787';
const sitePort = process.env.SITE_PORT || '4321';
const bin = (name) => path.join(root, 'node_modules/.bin', name);

const children = [
  spawn(bin('tsx'), ['watch', 'server/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PORT: apiPort, SITE_ORIGINS: `http://localhost:${sitePort}` },
  }),
  spawn(bin('astro'), ['dev', '--port', sitePort], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PUBLIC_API_BASE: process.env.PUBLIC_API_BASE || `http://localhost:${apiPort}` },
  }),
];

const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
