// Shared set-up of the preview engine tests: input media made with ffmpeg, an engine context that reads them by key,
// and ffprobe on what the engine made.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, expect } from 'vitest';
import type { MediaKind } from '../../src/lib/product-rules';
import type { EngineContext } from './types';
import { ffmpegTools, probe } from '../tools';
import { memoryProviderJobs } from '../test-support/provider-jobs';
import { useTestMedia } from '../test-support/lavfi-media';

export const tools = ffmpegTools();

/** One input: its file, and what a stored upload of it would say. */
export interface PreviewInput {
  file: string;
  mime: string;
  kind: MediaKind;
  durationS: number | null;
}

/**
 * The calling test file's inputs, made before its tests (removed after them): a still, a 1.5 s voice, a 1 s clip and a
 * LAME MP3; `dir` also takes what the tests write.
 */
export function usePreviewMedia() {
  beforeAll(() => {
    expect(tools, 'ffmpeg must be found after npm ci').not.toBeNull();
  });
  const media = useTestMedia('preview-test-', {
    image: { name: 'still.png', args: ['-f', 'lavfi', '-i', 'testsrc=s=400x300:d=1', '-frames:v', '1'] },
    audio: { name: 'voice.wav', args: ['-f', 'lavfi', '-i', 'sine=frequency=440:d=1.5', '-ac', '1'] },
    video: { name: 'face.mp4', args: ['-f', 'lavfi', '-i', 'testsrc=s=320x240:r=24:d=1', '-pix_fmt', 'yuv420p'] },
    // A LAME MP3 starts with an Info header frame whose bitrate says nothing of the length.
    lame: { name: 'voice.mp3', args: ['-f', 'lavfi', '-i', 'sine=frequency=440:d=5.96', '-ac', '1', '-b:a', '32k'] },
  });
  const inputs: Record<string, PreviewInput> = {
    image: { file: media.image, mime: 'image/png', kind: 'image', durationS: null },
    audio: { file: media.audio, mime: 'audio/wav', kind: 'audio', durationS: 1.5 },
    video: { file: media.video, mime: 'video/mp4', kind: 'video', durationS: 1 },
    lame: { file: media.lame, mime: 'audio/mpeg', kind: 'audio', durationS: 5.96 },
  };

  /** A context whose inputs are the local media, named by key instead of URL. */
  function localContext(): EngineContext {
    return {
      signal: new AbortController().signal,
      taskId: 'test',
      providerJobs: memoryProviderJobs(),
      progress: async () => {},
      async readInput(url, kinds) {
        const f = inputs[url]!;
        expect(kinds).toContain(f.kind);
        return { data: readFileSync(f.file), mime: f.mime, kind: f.kind, durationS: f.durationS, url };
      },
    };
  }

  /** ffprobe's reading of an MP4 the engine made. */
  async function probeBytes(data: Buffer) {
    const file = path.join(media.dir, `out-${Math.random().toString(36).slice(2)}.mp4`);
    writeFileSync(file, data);
    return probe(tools!.ffprobe!, file);
  }

  return { dir: media.dir, inputs, localContext, probeBytes };
}
