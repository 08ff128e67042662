// Preview engine: real MP4s checked with ffprobe (container, codec, size, length, label, spoken script), its input
// refusals and finding ffmpeg; behind the playground in preview-playground.test.ts.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINE_LABELS, PREVIEW, VIDEO_SIZES, voiceById, type Feature } from '../../src/lib/product-rules';
import { synthesize } from './espeak';
import { wavSeconds } from './wav';
import { locateFfmpeg, probe, runTool } from '../tools';
import { previewEngine } from './preview';
import { tools, usePreviewMedia } from './preview.fixtures';

const { dir, localContext, probeBytes } = usePreviewMedia();

describe('preview engine output (ffprobe)', () => {
  // A prompt's clip has the resolution and length asked for; only a sample model's spoken script gives it sound.
  const asked: Array<[Feature, { resolution: string; durationS: number } & Record<string, unknown>, boolean]> = [
    ['text-to-video', { prompt: 'A red fox runs through 100% fresh snow', resolution: '512p', durationS: 2 }, false],
    ['image-to-video', { prompt: 'slow push in', imageUrl: 'image', resolution: '720p', durationS: 1 }, false],
    ['character-to-video', { prompt: 'Hi!', modelId: 'model-emma', resolution: '512p', durationS: 2 }, true],
    ['character-to-video', { prompt: ' ', modelId: 'model-james', resolution: '512p', durationS: 1 }, false],
  ];
  // A clip over the 1.5 s voice lasts as long as it and keeps it: a photo's at 720p, a video's at the size its
  // videoParams ask for (0×0: the source's own, 320×240).
  const ask = (video_width: number, video_height: number) => ({ video_width, video_height });
  const overVoice: Array<[Feature, Record<string, unknown>, { width: number; height: number }]> = [
    ['talking-image', { audioUrl: 'audio', photoUrl: 'image' }, VIDEO_SIZES['720p']!],
    ['lipsync', { srcVideoUrl: 'video', audioUrl: 'audio', videoParams: ask(0, 0) }, { width: 320, height: 240 }],
    ['talking-face', { videoUrl: 'video', audioUrl: 'audio', videoParams: ask(640, 360) }, { width: 640, height: 360 }],
  ];
  const cases = [
    ...asked.map(([feature, input, audio]) => ({
      feature,
      input,
      ...VIDEO_SIZES[input.resolution]!,
      durationS: input.durationS,
      audio,
    })),
    ...overVoice.map(([feature, input, size]) => ({ feature, input, ...size, durationS: 1.5, audio: true })),
  ];
  it.each(cases)('$feature makes an H.264 MP4 at $width×$height lasting $durationS s', async (c) => {
    const result = await previewEngine().run(c.feature, c.input, localContext());
    expect(result.outputs).toHaveLength(1);
    const out = result.outputs[0]!;
    expect(out).toMatchObject({ kind: 'video', mime: 'video/mp4' });
    const info = await probeBytes(out.data);
    expect(info.formatName).toContain('mp4');
    expect(info.video).toMatchObject({ codec: 'h264', width: c.width, height: c.height, pixFmt: 'yuv420p' });
    expect(info.audio).toEqual(c.audio ? { codec: 'aac' } : null);
    // The audio is looped/trimmed to exactly its own length (AAC frames may add a few ms).
    expect(Math.abs(info.durationS - c.durationS)).toBeLessThan(0.1);
    expect(out.durationS).toBe(info.durationS);
    // +faststart: the index (moov) comes before the media data so browsers play while downloading.
    expect(out.data.indexOf('moov')).toBeLessThan(out.data.indexOf('mdat'));
    expect(out.data.includes(Buffer.from(ENGINE_LABELS.preview))).toBe(true);
  });

  it('character to video speaks its script: a script longer than the clip asked for makes the clip as long as the speech', async () => {
    const script =
      'Hello, I am Daniel. This script is read aloud by the offline voice, so the preview clip is not silent.';
    const speechS = wavSeconds(await synthesize(script, voiceById(PREVIEW.characterVoices['model-daniel']!)!.espeak));
    expect(speechS).toBeGreaterThan(3);
    const result = await previewEngine().run(
      'character-to-video',
      { prompt: script, modelId: 'model-daniel', resolution: '512p', durationS: 1 },
      localContext(),
    );
    const file = path.join(dir, 'spoken.mp4');
    writeFileSync(file, result.outputs[0]!.data);
    const info = await probe(tools!.ffprobe!, file);
    expect(info.audio).toEqual({ codec: 'aac' });
    expect(Math.abs(info.durationS - speechS)).toBeLessThan(0.2);
    // The soundtrack is speech, not silence: its loudest sample is well above the noise floor.
    const { stderr } = await runTool(tools!.ffmpeg, [
      '-hide_banner',
      '-i',
      file,
      '-map',
      '0:a',
      '-af',
      'volumedetect',
      '-f',
      'null',
      '-',
    ]);
    expect(Number(/max_volume: (-?[\d.]+) dB/.exec(stderr)?.[1])).toBeGreaterThan(-20);
  });

  it('refuses an unknown sample model and a resolution it does not offer as input errors', async () => {
    await expect(
      previewEngine().run('character-to-video', { prompt: 'x', modelId: 'model-nobody' }, localContext()),
    ).rejects.toThrow(/unknown modelId/);
    await expect(
      previewEngine().run('text-to-video', { prompt: 'x', resolution: '4k' }, localContext()),
    ).rejects.toThrow(/not offered/);
  });
});

describe('finding ffmpeg', () => {
  it('uses FFMPEG_PATH, and finds nothing with neither it nor PATH', () => {
    expect(locateFfmpeg({ env: { PATH: '/nonexistent' } })).toBeNull();
    const fromEnv = locateFfmpeg({ env: { PATH: '/nonexistent', FFMPEG_PATH: tools!.ffmpeg } });
    expect(fromEnv).toMatchObject({ ffmpeg: tools!.ffmpeg, source: 'env' });
  });
});
