// Makes the playground's example files in public/examples/ (src/lib/product-rules/examples.ts lists them) with the
// platform's own offline engines: speech by eSpeak NG, clips by the preview engine, then made small (reduced size, mono
// AAC). Run: node scripts/make-examples.mjs
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'public/examples');
const work = path.join(os.tmpdir(), `make-examples-${process.pid}`);
const load = (file) => tsImport(path.join(root, file), import.meta.url);

const spec = await load('src/lib/product-rules/index.ts');
const { synthesize } = await load('server/engines/espeak.ts');
const { espeakEngine } = await load('server/engines/espeak.ts');
const { previewEngine } = await load('server/engines/preview.ts');
const { ffmpegTools, runTool } = await load('server/tools/index.ts');

const tools = ffmpegTools();
if (!tools)
  throw new Error(
    'no usable ffmpeg (5 or newer) was found: install a current one (apt-get install ffmpeg) or set FFMPEG_PATH',
  );
const ffmpeg = (args) => runTool(tools.ffmpeg, ['-hide_banner', '-loglevel', 'error', ...args]);
/** The width examples are shown at: a quarter of 720p's area keeps each clip to tens of kilobytes. */
const SMALL_WIDTH = 384;

mkdirSync(out, { recursive: true });
mkdirSync(work, { recursive: true });
const example = (id) => spec.PLAYGROUND_EXAMPLES.find((e) => e.id === id);
const voiceOf = (id) => spec.voiceById(id).espeak;
const target = (src) => path.join(root, 'public', src);
const temp = (name) => path.join(work, name);

/** A context for running an engine outside a task: local files stand in for input URLs. */
function context(inputs = {}) {
  return {
    signal: new AbortController().signal,
    taskId: 'example',
    progress: async () => {},
    async readInput(url, kinds) {
      const input = inputs[url];
      if (!input || !kinds.includes(input.kind)) throw new Error(`no ${kinds.join('/')} input named ${url}`);
      return { data: readFileSync(input.file), mime: input.mime, kind: input.kind, durationS: null, url };
    },
  };
}

/** WAV bytes → a small mono AAC file. */
async function toAudio(wav, dest) {
  const file = temp(`${path.basename(dest)}.wav`);
  writeFileSync(file, wav);
  await ffmpeg([
    '-i',
    file,
    '-ac',
    '1',
    '-ar',
    '22050',
    '-c:a',
    'aac',
    '-b:a',
    '40k',
    '-movflags',
    '+faststart',
    '-y',
    dest,
  ]);
}

/** An engine's MP4 → the same clip at the examples' width, sound kept as mono AAC. */
async function toSmallVideo(mp4, dest, label) {
  const file = temp(`${path.basename(dest)}.full.mp4`);
  writeFileSync(file, mp4);
  await ffmpeg([
    '-i',
    file,
    '-vf',
    `scale=${SMALL_WIDTH}:-2`,
    '-c:v',
    'libx264',
    '-preset',
    'slow',
    '-crf',
    '30',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '40k',
    '-ac',
    '1',
    '-metadata',
    `comment=${label}`,
    '-movflags',
    '+faststart',
    '-y',
    dest,
  ]);
}

/** A picture drawn with ffmpeg's geq filter from one expression per colour channel. */
async function draw(dest, width, height, r, g, b) {
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `color=c=black:s=${width}x${height}:d=1`,
    '-vf',
    `format=rgb24,geq=r='${r}':g='${g}':b='${b}'`,
    '-frames:v',
    '1',
    '-y',
    dest,
  ]);
}

async function speech(id) {
  const e = example(id);
  const wav = await synthesize(
    e.inputs.text,
    voiceOf(e.inputs.voice),
    e.inputs.settings.speed,
    undefined,
    e.inputs.settings.pitch,
  );
  await toAudio(wav, target(e.output));
}

async function dialogue() {
  const e = example('dialogue-cafe');
  const voices = Object.fromEntries(e.inputs.speakers.map((s) => [s.name, s.voice]));
  const result = await espeakEngine().run('dialogue', { lines: e.inputs.lines, voices }, context());
  await toAudio(result.outputs[0].data, target(e.output));
}

async function voiceSample() {
  const e = example('clone-sample');
  const wav = await synthesize(
    'This is my voice. I am recording this short sample so the platform can learn how I sound.',
    voiceOf('en-us-male-1'),
  );
  await toAudio(wav, target(e.output));
}

/** Runs the preview engine as a task would and keeps its clip, made small. */
async function preview(feature, input, dest, inputs) {
  const result = await previewEngine().run(feature, input, context(inputs));
  await toSmallVideo(result.outputs[0].data, dest, spec.ENGINE_LABELS.preview);
}

async function clips() {
  const text = example('text-boat');
  await preview(
    'text-to-video',
    { prompt: text.inputs.prompt, resolution: '512p', durationS: 4, seed: text.inputs.settings.seed },
    target(text.output),
  );

  // A sunset drawn for the image example: a sky from orange to violet, the sun, and a sea with soft bands.
  const sunset = example('image-sunset');
  const sunsetPng = target(sunset.files[0].src);
  const sun = 'lt(hypot(X-320,Y-205),46)';
  const sea = 'gt(Y,232)';
  await draw(
    sunsetPng,
    640,
    360,
    `if(${sun},255,if(${sea},50+25*sin(Y/3),255-Y*0.35))`,
    `if(${sun},214,if(${sea},70+20*sin(Y/3),150-Y*0.3))`,
    `if(${sun},120,if(${sea},120+20*sin(Y/3),90+Y*0.35))`,
  );
  await preview(
    'image-to-video',
    { prompt: sunset.inputs.prompt, imageUrl: 'image', resolution: '512p', durationS: 4 },
    target(sunset.output),
    {
      image: { file: sunsetPng, kind: 'image', mime: 'image/png' },
    },
  );

  const sofia = example('character-sofia');
  await preview(
    'character-to-video',
    { prompt: sofia.inputs.prompt, modelId: sofia.inputs.modelId, resolution: '512p', durationS: 4 },
    target(sofia.output),
  );
}

/** The translate illustration: James speaking English, and the same shot with a Spanish line written for this page. */
async function translation() {
  const e = example('translate-studio');
  for (const [dest, text, voice] of [
    [e.files[0].src, 'Hello and welcome. Today I will show you our new studio.', 'en-us-male-1'],
    [e.output, 'Hola y bienvenidos. Hoy les voy a mostrar nuestro nuevo estudio.', 'es-male-1'],
  ]) {
    const wav = temp(`${path.basename(dest)}.wav`);
    writeFileSync(wav, await synthesize(text, voiceOf(voice)));
    await preview('talking-image', { modelId: 'model-james', audioUrl: 'speech' }, target(dest), {
      speech: { file: wav, kind: 'audio', mime: 'audio/wav' },
    });
  }
}

/** Lip sync on the preview engine: Daniel's silent clip, a line by eSpeak NG, and the engine's clip of the two. */
async function lipSync() {
  const e = example('lipsync-daniel');
  const face = target(e.files[0].src);
  const line = target(e.files[1].src);
  await preview('character-to-video', { prompt: '', modelId: 'model-daniel', resolution: '512p', durationS: 3 }, face);
  await toAudio(await synthesize('The results are in, and they look very good indeed.', voiceOf('en-gb-male-1')), line);
  await preview('talking-face', { videoUrl: 'face', audioUrl: 'line' }, target(e.output), {
    face: { file: face, kind: 'video', mime: 'video/mp4' },
    line: { file: line, kind: 'audio', mime: 'audio/mp4' },
  });
}

/** The clothes changer, drawn: a person in a grey shirt, a red shirt, and the person in the red shirt. */
async function clothes() {
  const e = example('clothes-red');
  // Skin: the head, the neck in the collar and the forearms below the sleeves; the shirt: a torso with short sleeves.
  const skin =
    'lt(hypot(X-160,Y-84),38)+lt(hypot((X-160)/22,(Y-136)/16),1)+between(Y,184,286)*(between(X,58,80)+between(X,240,262))';
  const shirt = 'between(X,100,220)*between(Y,132,318)+between(Y,140,186)*between(X,56,264)*lt(abs(X-160)-60,Y-100)';
  const legs = 'gt(Y,318)*(between(X,112,156)+between(X,164,208))';
  const person = (c) => `if(${skin},${c[0]},if(${shirt},${c[1]},if(${legs},${c[2]},${c[3]})))`;
  const channels = (shirtColour) =>
    [0, 1, 2].map((i) => person([[236, 196, 164][i], shirtColour[i], [40, 52, 92][i], [236, 239, 243][i]]));
  await draw(target(e.files[0].src), 320, 400, ...channels([150, 150, 156]));
  await draw(target(e.output), 320, 400, ...channels([200, 40, 52]));
  await draw(target(e.files[1].src), 320, 400, ...[200, 40, 52].map((c) => `if(${shirt}*not(${skin}),${c},255)`));
}

try {
  await speech('speech-welcome');
  await speech('speech-news');
  await dialogue();
  await voiceSample();
  await clips();
  await translation();
  await lipSync();
  await clothes();
} finally {
  rmSync(work, { recursive: true, force: true });
}

const files = readdirSync(out).map((name) => ({ name, bytes: statSync(path.join(out, name)).size }));
console.table(files);
console.log(
  `${files.length} files, ${files.reduce((n, f) => n + f.bytes, 0)} bytes (at most ${spec.EXAMPLES_MAX_BYTES})`,
);
