// Preview engine speed: seconds of video rendered per second of wall time, text and image clips at 480p and 720p.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ffmpegTools, runTool } from '../server/tools';
import { previewEngine } from '../server/engines/preview';
import type { Feature } from '../src/lib/product-rules';
import { memoryProviderJobs } from '../server/test-support/provider-jobs';

const tools = ffmpegTools();
if (!tools) throw new Error('no ffmpeg found for the preview engine');
const dir = mkdtempSync(path.join(tmpdir(), 'preview-bench-'));
const image = path.join(dir, 'still.png');
await runTool(tools.ffmpeg, ['-f', 'lavfi', '-i', 'testsrc=s=1280x720:d=1', '-frames:v', '1', '-y', image]);
const ctx = {
  signal: new AbortController().signal,
  taskId: 'bench',
  progress: async () => {},
  providerJobs: memoryProviderJobs(),
  readInput: async (url: string) => ({
    data: readFileSync(image),
    mime: 'image/png',
    kind: 'image' as const,
    durationS: null,
    url,
  }),
};
const rows = [];
for (const resolution of ['480p', '720p']) {
  for (const feature of ['text-to-video', 'image-to-video'] as Feature[]) {
    const durationS = 4;
    const started = performance.now();
    const result = await previewEngine().run(
      feature,
      { prompt: 'a lighthouse on a cliff at dusk', imageUrl: 'still', resolution, durationS },
      ctx,
    );
    const wallS = (performance.now() - started) / 1000;
    const videoS = result.outputs[0]!.durationS ?? durationS;
    rows.push({
      feature,
      resolution,
      'video s': videoS,
      'wall s': Number(wallS.toFixed(2)),
      'video s per s': Number((videoS / wallS).toFixed(2)),
    });
  }
}
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify(rows));
