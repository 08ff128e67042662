// Media lengths: files of every accepted kind made with the shipped ffmpeg, measured as they play (not as headers
// claim), uploads stored and charged on it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_LIMITS } from '../../src/lib/product-rules';
import { ffmpegTools, probe, runTool } from '../tools';
import { listPrice } from '../../src/lib/product-rules';
import { createTasksTestApp, createUser, type TasksTestApp } from '../test-support/tasks';
import { NO_FFPROBE_MESSAGE, probeMedia } from './probe';

const tools = ffmpegTools();
const dir = mkdtempSync(path.join(tmpdir(), 'probe-test-'));
const LENGTH_S = 5.96;
/** An input ffmpeg makes itself (lavfi). */
const lavfi = (source: string) => ['-f', 'lavfi', '-i', source];
const sine = lavfi(`sine=frequency=440:duration=${LENGTH_S}`);
const picture = lavfi(`testsrc=s=64x48:r=24:d=${LENGTH_S}`);

/**
 * One file per accepted kind. `header`: ffprobe's own format duration is a statement of the file (not an estimate
 * from the bitrate, as for raw AAC, nor absent, as in a WebM written to a pipe) and must agree with ours too.
 */
const FILES: Array<{
  name: string;
  args: string[];
  kind: 'audio' | 'video';
  mime: string;
  header: boolean;
  pipe?: boolean;
}> = [
  {
    name: 'lame-cbr-32k-mono.mp3',
    args: [...sine, '-ac', '1', '-b:a', '32k'],
    kind: 'audio',
    mime: 'audio/mpeg',
    header: true,
  },
  {
    name: 'lame-vbr-q4.mp3',
    args: [...sine, '-ac', '1', '-q:a', '4'],
    kind: 'audio',
    mime: 'audio/mpeg',
    header: true,
  },
  {
    name: 'id3v2.mp3',
    args: [
      ...sine,
      '-ac',
      '1',
      '-b:a',
      '64k',
      '-id3v2_version',
      '3',
      '-metadata',
      'title=A tagged tone',
      '-metadata',
      'artist=Probe',
    ],
    kind: 'audio',
    mime: 'audio/mpeg',
    header: true,
  },
  { name: 'plain.wav', args: [...sine, '-ac', '1'], kind: 'audio', mime: 'audio/wav', header: true },
  { name: 'aac.m4a', args: [...sine, '-ac', '1', '-c:a', 'aac'], kind: 'audio', mime: 'audio/mp4', header: true },
  {
    name: 'adts.aac',
    args: [...sine, '-ac', '1', '-c:a', 'aac', '-f', 'adts'],
    kind: 'audio',
    mime: 'audio/aac',
    header: false,
  },
  { name: 'opus.ogg', args: [...sine, '-ac', '1', '-c:a', 'libopus'], kind: 'audio', mime: 'audio/ogg', header: true },
  { name: 'lossless.flac', args: [...sine, '-ac', '1'], kind: 'audio', mime: 'audio/flac', header: true },
  {
    name: 'recorded.webm',
    args: [...sine, '-ac', '1', '-c:a', 'libopus', '-f', 'webm'],
    kind: 'audio',
    mime: 'audio/webm',
    header: false,
    pipe: true,
  },
  {
    name: 'h264.mp4',
    args: [...picture, ...sine, '-pix_fmt', 'yuv420p', '-shortest'],
    kind: 'video',
    mime: 'video/mp4',
    header: true,
  },
  {
    name: 'h264.mov',
    args: [...picture, ...sine, '-pix_fmt', 'yuv420p', '-shortest'],
    kind: 'video',
    mime: 'video/quicktime',
    header: true,
  },
  {
    name: 'vp8.webm',
    args: [
      ...picture,
      ...sine,
      '-c:v',
      'libvpx',
      '-deadline',
      'realtime',
      '-cpu-used',
      '8',
      '-c:a',
      'libopus',
      '-shortest',
    ],
    kind: 'video',
    mime: 'video/webm',
    header: true,
  },
  {
    name: 'streamed.webm',
    args: [...picture, '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-f', 'webm'],
    kind: 'video',
    mime: 'video/webm',
    header: false,
    pipe: true,
  },
];

const file = (name: string) => path.join(dir, name);

async function make(name: string, args: string[], pipe = false) {
  const ff = tools!.ffmpeg;
  // Written to a pipe, a muxer cannot go back to fill in the length: what a browser's MediaRecorder sends.
  if (pipe) writeFileSync(file(name), (await runTool(ff, ['-v', 'error', ...args, 'pipe:1'])).stdout);
  else await runTool(ff, ['-v', 'error', ...args, '-y', file(name)]);
}

beforeAll(async () => {
  expect(tools?.ffprobe, 'ffmpeg and ffprobe must be found after npm ci').toBeTruthy();
  for (const f of FILES) await make(f.name, f.args, f.pipe);
  await make('cover.png', [...lavfi('testsrc=s=64x64'), '-frames:v', '1']);
  // The AAC tone with the still attached as its cover art.
  await make('cover-art.m4a', [
    '-i',
    file('aac.m4a'),
    '-i',
    file('cover.png'),
    '-map',
    '0',
    '-map',
    '1',
    '-c',
    'copy',
    '-disposition:v',
    'attached_pic',
  ]);
  // 301 s of speech-rate audio, 8 kbit/s: under the size cap, over the 300 s length cap.
  await make('long.mp3', [...lavfi('sine=d=301'), '-ar', '8000', '-ac', '1', '-b:a', '8k']);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The LAME/Xing "Info" header's frame count rewritten: the header now claims a fraction of the real length. */
function understated(bytes: Buffer, frames: number): Buffer {
  const out = Buffer.from(bytes);
  const at = Math.max(out.indexOf('Info'), out.indexOf('Xing'));
  expect(at).toBeGreaterThan(0);
  expect(out.readUInt32BE(at + 4) & 1).toBe(1); // the frame count field is present
  out.writeUInt32BE(frames, at + 8);
  return out;
}

describe('probeMedia measures what plays', () => {
  it.each(FILES)('$name is $mime lasting the generated length', async (f) => {
    const measured = await probeMedia(readFileSync(file(f.name)));
    expect(measured).toMatchObject({ kind: f.kind, mime: f.mime });
    expect(Math.abs(measured!.durationS! - LENGTH_S)).toBeLessThan(0.1);
    const ffprobe = (await probe(tools!.ffprobe!, file(f.name))).headerDurationS;
    if (f.header) expect(Math.abs(measured!.durationS! - ffprobe!)).toBeLessThan(0.1);
  });

  it('a 5.96 s LAME MP3 (Info header frame first) is 5.96 s, so talking image costs 12 credits, not 8', async () => {
    const measured = await probeMedia(readFileSync(file('lame-cbr-32k-mono.mp3')));
    expect(measured!.durationS).toBeCloseTo(LENGTH_S, 2);
    expect(listPrice('talking-image', { seconds: measured!.durationS! }).credits).toBe(12);
  });

  it('a header that understates the length is not believed', async () => {
    const lying = understated(readFileSync(file('lame-cbr-32k-mono.mp3')), 10);
    const writtenLie = path.join(dir, 'lying.mp3');
    writeFileSync(writtenLie, lying);
    expect((await probe(tools!.ffprobe!, writtenLie)).headerDurationS).toBeLessThan(1);
    expect((await probeMedia(lying))!.durationS).toBeGreaterThan(LENGTH_S - 0.1);
  });

  it('cover art in an M4A does not make it a video; images need no tool', async () => {
    expect(await probeMedia(readFileSync(file('cover-art.m4a')))).toMatchObject({ kind: 'audio', mime: 'audio/mp4' });
    expect(await probeMedia(readFileSync(file('cover.png')))).toEqual({
      kind: 'image',
      mime: 'image/png',
      durationS: null,
    });
    expect(await probeMedia(readFileSync(file('cover.png')), { tools: () => null })).toEqual({
      kind: 'image',
      mime: 'image/png',
      durationS: null,
    });
  });

  it('bytes that only start like a format are not media; without ffprobe audio is refused, never taken unmeasured', async () => {
    const fake = Buffer.concat([
      readFileSync(file('lame-cbr-32k-mono.mp3')).subarray(0, 2000).fill(0, 1000),
      Buffer.alloc(10),
    ]);
    const measured = (await probeMedia(fake))?.durationS ?? null;
    expect(measured === null || measured < 0.5, `measured ${measured}`).toBe(true);
    expect(await probeMedia(Buffer.concat([Buffer.from('OggS'), Buffer.alloc(200)]))).toBeNull();
    // A lone MP3 or ADTS frame header before zeros looks like audio to a sniffer; decoding finds nothing playable.
    for (const lone of [
      [0xff, 0xfb, 0x90, 0x00],
      [0xff, 0xf1, 0x50, 0x40, 0x0c, 0x9f, 0xfc],
    ]) {
      expect(await probeMedia(Buffer.concat([Buffer.from(lone), Buffer.alloc(40)]))).toBeNull();
    }
    await expect(probeMedia(readFileSync(file('plain.wav')), { tools: () => null })).rejects.toThrow(
      NO_FFPROBE_MESSAGE,
    );
  });
});

describe('uploads are stored and capped on the measured length', () => {
  let t: TasksTestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('a 5.96 s MP3 upload is stored as 5960 ms, the length talking image holds and charges 12 credits on', async () => {
    t = await createTasksTestApp();
    const user = await createUser(t, 0);
    const info = await t.system.media.saveUpload(user.id, readFileSync(file('lame-cbr-32k-mono.mp3')), ['audio']);
    expect(info).toMatchObject({ kind: 'audio', mime: 'audio/mpeg', durationS: 5.96 });
    const row = await t.database.db
      .selectFrom('media')
      .select('duration_ms')
      .where('id', '=', info.id)
      .executeTakeFirstOrThrow();
    expect(row.duration_ms).toBe(5960);
    expect(listPrice('talking-image', { seconds: row.duration_ms! / 1000 }).credits).toBe(12);
  });

  it('every accepted kind is taken; the 300 s cap holds against a header claiming a fraction of the length', async () => {
    t = await createTasksTestApp();
    const user = await createUser(t, 0);
    for (const f of FILES) {
      const info = await t.system.media.saveUpload(user.id, readFileSync(file(f.name)), [f.kind]);
      expect(UPLOAD_LIMITS[f.kind].mimes).toContain(info.mime);
      expect(info.url).toMatch(new RegExp(`\\.${f.name.split('.').pop()}\\?`));
    }
    const long = understated(readFileSync(file('long.mp3')), 100);
    await expect(t.system.media.saveUpload(user.id, long, ['audio'])).rejects.toThrow(
      /at most 300 seconds long, this is 30[12] s/,
    );
  });
});
