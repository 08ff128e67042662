// Run first by every npm script: stops at once, saying how to fix it, when this Node is older than package.json's
// engines.node. Plain old JavaScript on purpose (no syntax or API newer than Node 12), so that an old Node can run it
// and explain.
import { readFileSync } from 'fs';
import { dirname, join } from 'path';
import { fileURLToPath } from 'url';

var root = join(dirname(fileURLToPath(import.meta.url)), '..');
var wanted = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
// Only the ">=X.Y.Z" form is read; any other range stops here so this check is never silently skipped.
var match = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(String(wanted).trim());
if (!match) {
  process.stderr.write(
    'scripts/require-node.mjs reads engines.node of the form ">=X.Y.Z"; package.json has "' + wanted + '"\n',
  );
  process.exit(1);
}

var need = [Number(match[1]), Number(match[2]), Number(match[3])];
var have = process.versions.node.split('.').map(Number);
var older = false;
for (var i = 0; i < 3; i++) {
  if (have[i] !== need[i]) {
    older = have[i] < need[i];
    break;
  }
}

if (older) {
  process.stderr.write(
    [
      '',
      'DreamAPI needs Node.js ' +
        wanted +
        ' (24 LTS recommended); this is Node.js ' +
        process.version +
        ' (' +
        process.execPath +
        ').',
      'Install Node 24 next to it and put it first on PATH, then run the command again:',
      '',
      '  npm install --prefix ~/.cache/node24 node@24',
      '  export PATH=~/.cache/node24/node_modules/.bin:$PATH',
      '',
      '(or, with nvm: nvm install, which reads .nvmrc)',
      '',
      '',
    ].join('\n'),
  );
  process.exit(1);
}
