// Outside media meet a current, confined ffmpeg: the system's build (never the npm 2018 one), version-checked, limited
// in CPU and memory, no network.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FFMPEG_MIN_MAJOR } from '../../src/lib/product-rules';
import { NO_FFPROBE_MESSAGE, probeMedia } from '../media/probe';
import { ffmpegTools, inspectFfmpeg, locateFfmpeg, parseFfmpegVersion, probe, runTool } from '.';

const dir = mkdtempSync(path.join(tmpdir(), 'ffmpeg-confine-'));
const file = (name: string) => path.join(dir, name);
const tools = ffmpegTools();

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('which ffmpeg reads outside files', () => {
  it('is the system one, a release at least FFMPEG_MIN_MAJOR, never the npm-shipped static build', () => {
    expect(tools).not.toBeNull();
    expect(tools!.ffmpeg).not.toMatch(/node_modules/);
    expect(tools!.ffprobe).not.toMatch(/node_modules/);
    const [ffmpeg, ffprobe] = inspectFfmpeg().found;
    for (const t of [ffmpeg, ffprobe]) {
      expect(t.problem).toBeNull();
      expect(parseFfmpegVersion(`${t.tool} version ${t.version}`).major).toBeGreaterThanOrEqual(FFMPEG_MIN_MAJOR);
    }
  });

  it('reads release numbers, and takes a git snapshot (the npm build: N-47683-g0e8eb07980-static) for unknown', () => {
    expect(parseFfmpegVersion('ffmpeg version 5.1.9-0+deb12u1 Copyright (c) 2000-2026')).toEqual({
      version: '5.1.9-0+deb12u1',
      major: 5,
    });
    expect(parseFfmpegVersion('ffprobe version n7.1 Copyright')).toEqual({ version: 'n7.1', major: 7 });
    expect(parseFfmpegVersion('ffmpeg version N-47683-g0e8eb07980-static https://johnvansickle.com/ffmpeg/')).toEqual({
      version: 'N-47683-g0e8eb07980-static',
      major: null,
    });
  });

  it('refuses an ffprobe older than the minimum with a clear message, and audio is then refused as without one', async () => {
    const fake = file('old-ffprobe');
    writeFileSync(
      fake,
      '#!/bin/sh\necho "ffprobe version 4.4.2-0ubuntu0.22.04.1 Copyright (c) 2007-2021 the FFmpeg developers"\n',
    );
    chmodSync(fake, 0o755);
    const env = { PATH: process.env.PATH, FFPROBE_PATH: fake };
    const {
      tools: found,
      found: [, ffprobe],
    } = inspectFfmpeg({ env });
    expect(found?.ffprobe).toBeNull();
    expect(ffprobe.problem).toContain(
      `ffprobe at ${fake} is version 4.4.2-0ubuntu0.22.04.1, not a release ${FFMPEG_MIN_MAJOR} or newer`,
    );
    await runTool(tools!.ffmpeg, ['-v', 'error', '-f', 'lavfi', '-i', 'sine=d=1', '-y', file('tone.wav')]);
    await expect(probeMedia(readFileSync(file('tone.wav')), { tools: () => locateFfmpeg({ env }) })).rejects.toThrow(
      NO_FFPROBE_MESSAGE,
    );
  });

  it('refuses a snapshot build like the npm-shipped 2018 ffmpeg even when FFMPEG_PATH names it', () => {
    const fake = file('snapshot-ffmpeg');
    writeFileSync(
      fake,
      '#!/bin/sh\necho "ffmpeg version N-47683-g0e8eb07980-static https://johnvansickle.com/ffmpeg/  Copyright (c) 2000-2018 the FFmpeg developers"\n',
    );
    chmodSync(fake, 0o755);
    const {
      tools: found,
      found: [ffmpeg],
    } = inspectFfmpeg({ env: { PATH: process.env.PATH, FFMPEG_PATH: fake } });
    expect(found).toBeNull();
    expect(ffmpeg.problem).toContain('version N-47683');
  });
});

/** A PNG claiming 16000×16000 16-bit RGBA (2 GB decoded) in a few hundred bytes: decoding it asks for the memory. */
function hugePng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(16_000, 0);
  ihdr.writeUInt32BE(16_000, 4);
  ihdr[8] = 16;
  ihdr[9] = 6;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(4 * (16_000 * 8 + 1)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('limits of every run', () => {
  it('a video whose decoding needs more memory than the limit is unreadable (null, so a 4xx), not measured', async () => {
    writeFileSync(file('huge.png'), hugePng());
    await runTool(tools!.ffmpeg, [
      '-v',
      'error',
      '-f',
      'image2',
      '-c:v',
      'png',
      '-i',
      file('huge.png'),
      '-c',
      'copy',
      '-y',
      file('huge.mov'),
    ]);
    await expect(probe(tools!.ffprobe!, file('huge.mov'), undefined, 'mov')).rejects.toThrow(
      /ran out of its memory limit/,
    );
    await expect(probeMedia(readFileSync(file('huge.mov')))).resolves.toBeNull();
  }, 30_000);

  it('a run past its CPU time is killed by the kernel', async () => {
    const run = runTool(
      tools!.ffmpeg,
      ['-v', 'error', '-f', 'lavfi', '-i', 'sine=d=100000', '-f', 'null', '-'],
      AbortSignal.timeout(20_000),
      undefined,
      {
        cpuSeconds: 1,
        addressSpaceBytes: 2 * 1024 ** 3,
      },
    );
    await expect(run).rejects.toThrow(/killed by SIG(XCPU|KILL)/);
  }, 30_000);
});

describe('no network', () => {
  let server: Server;
  let base = '';
  const requests: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.end('#EXTM3U\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('no run fetches a URL: not one given as the input, nor one an HLS playlist or a concat list names', async () => {
    writeFileSync(
      file('list.m3u8'),
      `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n${base}/segment.ts\n#EXT-X-ENDLIST\n`,
    );
    writeFileSync(file('list.ffconcat'), `ffconcat version 1.0\nfile '${base}/part.wav'\n`);
    const attempts = [
      // Callers that name no whitelist themselves: the runner adds it (a URL given as input is fetched without it).
      runTool(tools!.ffmpeg, ['-v', 'error', '-i', `${base}/direct.wav`, '-f', 'null', '-']),
      runTool(tools!.ffprobe!, ['-v', 'error', `${base}/direct.m3u8`]),
      runTool(tools!.ffmpeg, ['-v', 'error', '-i', file('list.m3u8'), '-f', 'null', '-']),
      runTool(tools!.ffmpeg, [
        '-v',
        'error',
        '-f',
        'concat',
        '-safe',
        '0',
        '-i',
        file('list.ffconcat'),
        '-f',
        'null',
        '-',
      ]),
      runTool(tools!.ffprobe!, ['-v', 'error', '-show_streams', file('list.m3u8')]),
      probe(tools!.ffprobe!, file('list.m3u8')),
    ];
    await Promise.allSettled(attempts);
    expect(requests).toEqual([]);
  }, 30_000);
});
