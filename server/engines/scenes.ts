// ffmpeg argument lists of the preview engine's scenes: prompt gradients, portraits, pan/zoom, audio over a still or a
// video.
import { createHash } from 'node:crypto';
import { PREVIEW, ENGINE_LABELS } from '../../src/lib/product-rules';

export interface Size {
  width: number;
  height: number;
}

/** Three phases in [0, 2π) from a text, so one prompt always gives the same colours and another gives others. */
export function phases(text: string): [number, number, number] {
  const h = createHash('sha256').update(text).digest();
  return [0, 1, 2].map((i) => ((h.readUInt16BE(i * 2) / 65536) * 2 * Math.PI).toFixed(3)).map(Number) as [
    number,
    number,
    number,
  ];
}

/** Wraps a prompt into at most `maxLines` lines for drawtext, ending with … when cut. */
export function wrapText(text: string, width = 42, maxLines = 4): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.replace(/\s+/g, ' ').trim().split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (next.length > width && line) {
      lines.push(line);
      line = word.slice(0, width);
    } else line = next.slice(0, width);
  }
  if (line) lines.push(line);
  return lines.length > maxLines
    ? [...lines.slice(0, maxLines - 1), `${lines[maxLines - 1]!.slice(0, width - 1)}…`].join('\n')
    : lines.join('\n');
}

/** ffmpeg writes only its errors, which runTool's error message quotes. */
const quiet = ['-hide_banner', '-loglevel', 'error'];
/** An input made by ffmpeg itself (lavfi): the colour field a scene paints on. */
const generated = (source: string) => ['-f', 'lavfi', '-i', source];
/** Filter the first input's video through `graph` and take the second input's audio. */
const filteredVideoWithAudio = (graph: string) => ['-filter_complex', `[0:v]${graph}[v]`, '-map', '[v]', '-map', '1:a'];
const encodeVideo = [
  '-c:v',
  'libx264',
  '-preset',
  PREVIEW.x264Preset,
  '-crf',
  String(PREVIEW.crf),
  '-pix_fmt',
  'yuv420p',
  '-r',
  String(PREVIEW.fps),
];
const encodeAudio = ['-c:a', 'aac', '-b:a', '128k'];
/** The label travels inside the file too, so a downloaded clip still says what made it. */
const finish = (out: string) => ['-metadata', `comment=${ENGINE_LABELS.preview}`, '-movflags', '+faststart', '-y', out];

function drawText(textFile: string | null, font: string | null, size: Size, where: 'center' | 'bottom'): string {
  if (!textFile || !font) return '';
  const fontSize = Math.round(size.height / 18);
  const y = where === 'center' ? '(h-text_h)/2' : `h-text_h-${Math.round(size.height / 14)}`;
  // expansion=none: a % in the prompt is drawn as typed, never read as a drawtext function.
  return `,drawtext=fontfile=${font}:textfile=${textFile}:expansion=none:fontcolor=white:fontsize=${fontSize}:line_spacing=${Math.round(fontSize / 3)}:box=1:boxcolor=black@0.45:boxborderw=${Math.round(fontSize / 2)}:x=(w-text_w)/2:y=${y}:alpha='min(1,t/0.6)'`;
}

/**
 * An animated clip from a prompt: a low-resolution plasma of sines whose phases come from the prompt,
 * scaled up (cheap, and smooth because of the bicubic scaling), with the prompt drawn over it when a font exists.
 */
export function promptClipArgs(o: {
  prompt: string;
  size: Size;
  durationS: number;
  textFile: string | null;
  font: string | null;
  out: string;
}): string[] {
  const [a, b, c] = phases(o.prompt);
  const plasma = `geq=r='128+100*sin(X/11+T*1.3+${a})':g='128+100*sin(Y/9+T*0.9+${b})':b='128+100*sin((X+Y)/15+T*1.7+${c})'`;
  // setsar=1: the 16:9 plasma scaled to another shape (9:16, 1:1) keeps square pixels, so players show the frame as
  // made.
  const graph = `format=rgb24,${plasma},scale=${o.size.width}:${o.size.height}:flags=bicubic,setsar=1${drawText(o.textFile, o.font, o.size, 'center')},format=yuv420p`;
  return [
    ...quiet,
    ...generated(`color=c=black:s=96x54:r=${PREVIEW.fps}:d=${o.durationS}`),
    '-vf',
    graph,
    '-t',
    String(o.durationS),
    '-an',
    ...encodeVideo,
    ...finish(o.out),
  ];
}

/**
 * A still portrait for a sample model (its SVG cannot be decoded by ffmpeg): head and shoulders in colours of its id.
 */
export function portraitArgs(o: { modelId: string; out: string }): string[] {
  const [a, b, c] = phases(o.modelId);
  const shirt = (p: number) => Math.round(110 + 90 * Math.sin(p));
  const head = `lt(hypot(X-160,Y-78),38)`;
  const body = `lt(hypot((X-160)/82,(Y-185)/62),1)`;
  const channel = (skin: number, bg: number, p: number) => `'if(${head},${skin},if(${body},${shirt(p)},${bg}))'`;
  const graph = `format=rgb24,geq=r=${channel(236, 230, a)}:g=${channel(196, 234, b)}:b=${channel(164, 242, c)}`;
  return [...quiet, ...generated('color=c=black:s=320x180:d=1'), '-vf', graph, '-frames:v', '1', '-y', o.out];
}

/**
 * Pan and zoom over a still: cover the frame, then zoom in slowly while drifting towards a corner chosen by the prompt;
 * with `audio` (a character's spoken script) that sound is the clip's soundtrack.
 */
export function panZoomArgs(o: {
  image: string;
  prompt: string;
  size: Size;
  durationS: number;
  textFile: string | null;
  font: string | null;
  audio?: string | null;
  out: string;
}): string[] {
  const frames = Math.round(o.durationS * PREVIEW.fps);
  const [a] = phases(o.prompt);
  const dx = Math.cos(a) >= 0 ? '1' : '0';
  const { width: w, height: h } = o.size;
  const cover = `scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h},setsar=1`;
  const zoom = `zoompan=z='1+0.25*on/${frames}':x='(iw-iw/zoom)*${dx === '1' ? 'on' : `(${frames}-on)`}/${frames}':y='(ih-ih/zoom)/2':d=${frames}:s=${w}x${h}:fps=${PREVIEW.fps}`;
  const graph = `${cover},${zoom}${drawText(o.textFile, o.font, o.size, 'bottom')},format=yuv420p`;
  const sound = o.audio ? ['-map', '0:v', '-map', '1:a', ...encodeAudio] : ['-an'];
  return [
    ...quiet,
    '-i',
    o.image,
    ...(o.audio ? ['-i', o.audio] : []),
    '-vf',
    graph,
    '-frames:v',
    String(frames),
    ...sound,
    ...encodeVideo,
    ...finish(o.out),
  ];
}

/**
 * A still (photo or portrait) shown for the audio's length, fitted into the frame, with a slow zoom so it is not
 * frozen.
 */
export function stillWithAudioArgs(o: {
  image: string;
  audio: string;
  size: Size;
  durationS: number;
  out: string;
}): string[] {
  const { width: w, height: h } = o.size;
  const frames = Math.max(1, Math.round(o.durationS * PREVIEW.fps));
  const graph = `scale=${w}:${h}:force_original_aspect_ratio=decrease,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1,zoompan=z='1+0.06*on/${frames}':x='(iw-iw/zoom)/2':y='(ih-ih/zoom)/2':d=${frames}:s=${w}x${h}:fps=${PREVIEW.fps},format=yuv420p`;
  return [
    ...quiet,
    '-i',
    o.image,
    '-i',
    o.audio,
    ...filteredVideoWithAudio(graph),
    '-frames:v',
    String(frames),
    '-t',
    String(o.durationS),
    ...encodeVideo,
    ...encodeAudio,
    ...finish(o.out),
  ];
}

/** The given audio over the given video, the video looped (or cut) to the audio's length. */
export function audioOverVideoArgs(o: {
  video: string;
  audio: string;
  size: Size | null;
  durationS: number;
  out: string;
}): string[] {
  // Without a requested size the source's own is kept, made even and capped (H.264 yuv420p needs even sides).
  const scale = o.size
    ? `scale=${o.size.width}:${o.size.height}:force_original_aspect_ratio=decrease,pad=${o.size.width}:${o.size.height}:(ow-iw)/2:(oh-ih)/2`
    : `scale='trunc(min(iw,${PREVIEW.maxSide})/2)*2':-2`;
  return [
    ...quiet,
    '-stream_loop',
    '-1',
    '-i',
    o.video,
    '-i',
    o.audio,
    ...filteredVideoWithAudio(`${scale},setsar=1,format=yuv420p`),
    '-t',
    String(o.durationS),
    ...encodeVideo,
    ...encodeAudio,
    ...finish(o.out),
  ];
}
