// The baseline of the upload memory bench: bare node:http that pipes each request body to a file, nothing else.
import { createWriteStream, mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const dir = mkdtempSync(path.join(tmpdir(), 'upload-bare-'));
let n = 0;
const server = createServer(async (req, res) => {
  await pipeline(req, createWriteStream(path.join(dir, `body-${++n}`)));
  res.end('{}');
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ msg: 'listening', port: server.address().port })));
