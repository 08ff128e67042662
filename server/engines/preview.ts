// The offline preview engine: real MP4 files made with ffmpeg (no AI model) so every video flow runs with no key.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  FFMPEG_MIN_MAJOR,
  MEDIA_EXTENSIONS,
  PREVIEW,
  PREVIEW_FEATURES,
  VIDEO_SIZES,
  SAMPLE_MODELS,
  voiceById,
  type Feature,
  type RunOption,
} from '../../src/lib/product-rules';
import { probeMedia } from '../media/probe';
import { EngineInputError, type Engine, type EngineContext, type EngineResult, type InputMedia } from './types';
import { ffmpegTools, probe, runTool, withWorkDir, type FfmpegTools } from '../tools';
import { synthesize } from './espeak';
import { wavSeconds } from './wav';
import {
  audioOverVideoArgs,
  panZoomArgs,
  portraitArgs,
  promptClipArgs,
  stillWithAudioArgs,
  wrapText,
  type Size,
} from './scenes';

/**
 * Stored inputs of the video features (playground and public API field names; src/lib/api-contract/task-schemas.ts).
 */
interface VideoInput {
  prompt?: string;
  imageUrl?: string;
  imgUrl?: string;
  image?: string;
  photoUrl?: string;
  modelId?: string;
  resolution?: string;
  durationS?: number;
  audioUrl?: string;
  videoUrl?: string;
  srcVideoUrl?: string;
  videoParams?: { video_width?: number; video_height?: number };
  /**
   * Advanced settings (src/lib/product-rules/run-options.ts): the frame's shape, and a seed that varies colours and
   * motion.
   */
  aspectRatio?: string;
  seed?: number;
}

/** The clip features draw their own frames, so they honour a frame shape and a seed; the others follow their inputs. */
const CLIP_OPTIONS: readonly RunOption[] = ['aspectRatio', 'seed'];
const CLIP_FEATURES = [
  'text-to-video',
  'image-to-video',
  'character-to-video',
  'wan-text-to-video',
  'wan-image-to-video',
] as const;

/** A 16:9 size turned to the asked shape: 9:16 swaps the sides, 1:1 keeps the short one (the resolution's figure). */
function shaped(size: Size, aspectRatio: string | undefined): Size {
  if (aspectRatio === '9:16') return { width: size.height, height: size.width };
  if (aspectRatio === '1:1') return { width: size.height, height: size.height };
  return size;
}

/** What the scene's colours and drift are drawn from: the prompt, and the seed when one is given. */
const seeded = (text: string, seed: number | undefined) => (seed === undefined ? text : `${text}\u0000${seed}`);

export const NO_FFMPEG_MESSAGE = `the preview engine needs ffmpeg ${FFMPEG_MIN_MAJOR} or newer: install it (apt-get install ffmpeg), set FFMPEG_PATH, or put ffmpeg on PATH`;

function sizeOf(resolution: string | undefined, fallback: string): Size {
  const size = VIDEO_SIZES[resolution ?? fallback];
  if (!size)
    throw new EngineInputError(
      `resolution ${resolution} is not offered; offered: ${Object.keys(VIDEO_SIZES).join(', ')}`,
    );
  return size;
}

/** A size given in videoParams (0 means "keep the source's"), made even for yuv420p. */
function requestedSize(p: VideoInput['videoParams']): Size | null {
  const w = p?.video_width ?? 0;
  const h = p?.video_height ?? 0;
  if (w <= 0 || h <= 0) return null;
  const even = (n: number) => Math.max(2, Math.min(PREVIEW.maxSide, Math.round(n / 2) * 2));
  return { width: even(w), height: even(h) };
}

/**
 * The character's script spoken by the offline synthesizer, in the voice of its sample model, as a WAV in `dir`; null
 * without a script.
 */
async function spoken(
  input: VideoInput,
  ctx: EngineContext,
  dir: string,
): Promise<{ file: string; seconds: number } | null> {
  const script = input.prompt?.trim();
  if (!script) return null;
  const voice = voiceById((input.modelId && PREVIEW.characterVoices[input.modelId]) || PREVIEW.characterDefaultVoice)!;
  const wav = await synthesize(script, voice.espeak, undefined, ctx.signal);
  const file = path.join(dir, 'speech.wav');
  await writeFile(file, wav);
  return { file, seconds: wavSeconds(wav) };
}

export function previewEngine(o: { tools?: () => FfmpegTools | null } = {}): Engine {
  const tools = o.tools ?? ffmpegTools;

  async function render(
    feature: Feature,
    input: VideoInput,
    ctx: EngineContext,
    t: FfmpegTools,
    dir: string,
  ): Promise<{ file: string; expectedS: number; hasAudio: boolean }> {
    const out = path.join(dir, 'out.mp4');
    const save = async (media: InputMedia, name: string) => {
      const file = path.join(dir, `${name}.${MEDIA_EXTENSIONS[media.mime] ?? 'bin'}`);
      await writeFile(file, media.data);
      return file;
    };
    const textFile = async (text: string | undefined) => {
      if (!text || !t.font) return null;
      const file = path.join(dir, 'prompt.txt');
      await writeFile(file, wrapText(text));
      return file;
    };
    const portrait = async (modelId: string) => {
      if (!SAMPLE_MODELS.some((m) => m.id === modelId)) throw new EngineInputError(`unknown modelId ${modelId}`);
      const file = path.join(dir, 'portrait.png');
      await runTool(t.ffmpeg, portraitArgs({ modelId, out: file }), ctx.signal);
      return file;
    };
    const still = async () => {
      const url = input.imageUrl ?? input.imgUrl ?? input.image ?? input.photoUrl;
      if (url) return save(await ctx.readInput(url, ['image']), 'still');
      if (input.modelId) return portrait(input.modelId);
      throw new EngineInputError('an image (imageUrl) or a sample model (modelId) is required');
    };
    // The input reader measured the audio (server/media/probe.ts: decoded, not read off a header); the output is
    // made exactly that long, so it is never shorter than its sound and is settled on the same measure.
    const audioLength = async (media: InputMedia) => {
      const seconds = media.durationS ?? (await probeMedia(media.data, { signal: ctx.signal }))?.durationS ?? 0;
      if (!(seconds > 0)) throw new EngineInputError('the audio has no measurable length');
      return seconds;
    };

    switch (feature) {
      case 'text-to-video':
      case 'wan-text-to-video': {
        const durationS =
          feature === 'wan-text-to-video' ? PREVIEW.wanDurationS : (input.durationS ?? PREVIEW.defaultDurationS);
        const size = shaped(
          sizeOf(input.resolution, feature === 'wan-text-to-video' ? '480p' : PREVIEW.defaultResolution),
          input.aspectRatio,
        );
        const prompt = input.prompt ?? '';
        await runTool(
          t.ffmpeg,
          promptClipArgs({
            prompt: seeded(prompt, input.seed),
            size,
            durationS,
            textFile: await textFile(prompt),
            font: t.font,
            out,
          }),
          ctx.signal,
        );
        return { file: out, expectedS: durationS, hasAudio: false };
      }
      case 'image-to-video':
      case 'wan-image-to-video':
      case 'character-to-video': {
        const askedS =
          feature === 'wan-image-to-video' ? PREVIEW.wanDurationS : (input.durationS ?? PREVIEW.defaultDurationS);
        const size = shaped(
          sizeOf(input.resolution, feature === 'wan-image-to-video' ? '480p' : PREVIEW.defaultResolution),
          input.aspectRatio,
        );
        const image = await still();
        // A character with a script says it (offline speech); the clip lasts the length asked for, or the speech if
        // longer.
        const speech = feature === 'character-to-video' ? await spoken(input, ctx, dir) : null;
        const durationS = Math.max(askedS, speech?.seconds ?? 0);
        await ctx.progress(20);
        const args = {
          image,
          prompt: seeded(input.prompt ?? '', input.seed),
          size,
          durationS,
          textFile: await textFile(input.prompt),
          font: t.font,
          audio: speech?.file ?? null,
          out,
        };
        await runTool(t.ffmpeg, panZoomArgs(args), ctx.signal);
        return { file: out, expectedS: durationS, hasAudio: speech !== null };
      }
      case 'talking-image':
      case 'talking-face':
      case 'lipsync': {
        if (!input.audioUrl) throw new EngineInputError('audioUrl is required');
        const audioMedia = await ctx.readInput(input.audioUrl, ['audio']);
        const audio = await save(audioMedia, 'audio');
        const durationS = await audioLength(audioMedia);
        await ctx.progress(20);
        const videoUrl = input.srcVideoUrl ?? input.videoUrl;
        if (videoUrl && feature !== 'talking-image') {
          const video = await save(await ctx.readInput(videoUrl, ['video']), 'video');
          await runTool(
            t.ffmpeg,
            audioOverVideoArgs({ video, audio, size: requestedSize(input.videoParams), durationS, out }),
            ctx.signal,
          );
        } else {
          const size = requestedSize(input.videoParams) ?? sizeOf(PREVIEW.talkingResolution, PREVIEW.talkingResolution);
          await runTool(
            t.ffmpeg,
            stillWithAudioArgs({ image: await still(), audio, size, durationS, out }),
            ctx.signal,
          );
        }
        return { file: out, expectedS: durationS, hasAudio: true };
      }
      default:
        throw new EngineInputError(`the preview engine does not make ${feature}`);
    }
  }

  return {
    name: 'preview',
    features: PREVIEW_FEATURES,
    options: Object.fromEntries(CLIP_FEATURES.map((f) => [f, CLIP_OPTIONS])),
    unavailable: () => (tools() ? null : NO_FFMPEG_MESSAGE),
    async run(feature, rawInput, ctx): Promise<EngineResult> {
      const t = tools();
      if (!t) throw new Error(NO_FFMPEG_MESSAGE);
      // Work files live under DATA_DIR/tmp (workdir.ts), emptied at start should the server be killed mid-render.
      return withWorkDir('preview-', async (dir) => {
        await ctx.progress(5);
        const { file, expectedS } = await render(feature, (rawInput ?? {}) as VideoInput, ctx, t, dir);
        await ctx.progress(95);
        // The real length is measured (per-second features are settled on it); without ffprobe, the length asked for.
        const durationS = t.ffprobe ? (await probe(t.ffprobe, file, ctx.signal)).durationS : expectedS;
        return { outputs: [{ kind: 'video', mime: 'video/mp4', data: await readFile(file), durationS }] };
      });
    },
  };
}
