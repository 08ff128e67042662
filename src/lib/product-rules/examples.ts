// Example runs each playground screen shows before its first run: inputs "Try an example" fills in, and the output
// shipped in public/examples/. scripts/make-examples.mjs makes every file listed here with the platform's offline
// engines (eSpeak NG, the preview engine's ffmpeg scenes).

import type { MediaKind } from './limits';

/** The playground screens that run tasks, as their drafts and tracking name them. */
export type ExampleScreen =
  'speech' | 'voiceClone' | 'dialogue' | 'image' | 'text' | 'character' | 'translate' | 'lipSync' | 'alClothesChanger';

/** An example file: its path on the site (under public/examples/), and what it is, told by its extension. */
export interface ExampleMedia {
  src: string;
  kind: MediaKind;
  mime: string;
}

const TYPES: Record<string, Pick<ExampleMedia, 'kind' | 'mime'>> = {
  m4a: { kind: 'audio', mime: 'audio/mp4' },
  mp4: { kind: 'video', mime: 'video/mp4' },
  png: { kind: 'image', mime: 'image/png' },
};

export function exampleMedia(src: string): ExampleMedia {
  const type = TYPES[src.split('.').pop() ?? ''];
  if (!type) throw new Error(`${src}: examples are .m4a, .mp4 or .png files`);
  return { src, ...type };
}

export interface PlaygroundExample {
  id: string;
  screen: ExampleScreen;
  title: string;
  /** What made the output, said under it so no example passes for more than it is. */
  madeBy: string;
  /**
   * Paths only (plain data, so a bundle that does not show examples drops the list): exampleMedia() tells what each is.
   */
  output: string;
  /** Draft fields "Try an example" sets, as the screen names them. */
  inputs: Record<string, unknown>;
  /** Files "Try an example" uploads (as the person's own) into draft fields. */
  files?: Array<{ field: string; src: string }>;
}

const ESPEAK = 'Made by eSpeak NG, the offline speech engine (no AI model).';
const PREVIEW = 'Made by the preview engine (no AI model), shown at a reduced size.';

/** Total size of the example files stays under this (examples.test.tsx checks it); they are small on purpose. */
export const EXAMPLES_MAX_BYTES = 1.5 * 1024 * 1024;

export const PLAYGROUND_EXAMPLES: readonly PlaygroundExample[] = [
  {
    id: 'speech-welcome',
    screen: 'speech',
    title: 'A friendly welcome',
    madeBy: ESPEAK,
    output: '/examples/speech-welcome.m4a',
    inputs: {
      text: 'Welcome to the playground. Type any text, pick a voice, and hear it in a second or two.',
      voice: 'en-us-female-1',
      quality: 'common',
      settings: {},
    },
  },
  {
    id: 'speech-news',
    screen: 'speech',
    title: 'Late news, slower and lower',
    madeBy: `${ESPEAK} Speed 140 and pitch 35 in the advanced settings.`,
    output: '/examples/speech-news.m4a',
    inputs: {
      text: 'Good evening. This is the late news, read a little slower and a little lower than usual.',
      voice: 'en-gb-male-1',
      quality: 'common',
      settings: { speed: 140, pitch: 35 },
    },
  },
  {
    id: 'dialogue-cafe',
    screen: 'dialogue',
    title: 'Two friends plan lunch',
    madeBy: ESPEAK,
    output: '/examples/dialogue-cafe.m4a',
    inputs: {
      speakers: [
        { name: 'Alex', voice: 'en-us-female-1' },
        { name: 'Sam', voice: 'en-gb-male-1' },
      ],
      lines: [
        { speaker: 'Alex', text: 'Morning! Did you try the new café on the corner?' },
        { speaker: 'Sam', text: 'Not yet. Is the coffee any good?' },
        { speaker: 'Alex', text: 'The best in town, and they bake their own bread.' },
        { speaker: 'Sam', text: 'Then let us go there at lunch.' },
      ],
    },
  },
  {
    id: 'clone-sample',
    screen: 'voiceClone',
    title: 'A clean voice sample',
    madeBy:
      'A sample recording made by eSpeak NG for this page; the clone itself is made by the engine this server runs for voice cloning.',
    output: '/examples/voice-sample.m4a',
    inputs: { name: 'Narration sample' },
    files: [{ field: 'sample', src: '/examples/voice-sample.m4a' }],
  },
  {
    id: 'text-boat',
    screen: 'text',
    title: 'A paper boat in the rain',
    madeBy: PREVIEW,
    output: '/examples/text-boat.mp4',
    inputs: { prompt: 'A paper boat drifting down a rainy street, close-up', option: '4s-512p', settings: { seed: 7 } },
  },
  {
    id: 'image-sunset',
    screen: 'image',
    title: 'Zooming into a sunset',
    madeBy: `${PREVIEW} The picture was drawn for this page.`,
    output: '/examples/image-sunset.mp4',
    inputs: { prompt: 'Slow zoom towards the sun, warm evening light', option: '4s-512p' },
    files: [{ field: 'image', src: '/examples/sunset.png' }],
  },
  {
    id: 'character-sofia',
    screen: 'character',
    title: 'Sofia says hello',
    madeBy: PREVIEW,
    output: '/examples/character-sofia.mp4',
    inputs: {
      modelId: 'model-sofia',
      drive: 'script',
      prompt: 'Hi! Welcome to my channel.',
      option: '4s-512p',
      image: null,
    },
  },
  {
    id: 'translate-studio',
    screen: 'translate',
    title: 'A welcome, dubbed into Spanish',
    madeBy:
      'An illustration made by eSpeak NG and the preview engine for this page: the Spanish text was written by ' +
      'hand; the feature itself runs on the engine this server configures.',
    output: '/examples/talk-es.mp4',
    inputs: { source: 'en-US', target: 'es', lipSync: false },
    files: [{ field: 'video', src: '/examples/talk-en.mp4' }],
  },
  {
    id: 'lipsync-daniel',
    screen: 'lipSync',
    title: 'Daniel reads a line',
    madeBy: `${PREVIEW} The line is spoken by eSpeak NG.`,
    output: '/examples/lipsync-daniel.mp4',
    inputs: {},
    files: [
      { field: 'video', src: '/examples/face-daniel.mp4' },
      { field: 'audio', src: '/examples/lipsync-line.m4a' },
    ],
  },
  {
    id: 'clothes-red',
    screen: 'alClothesChanger',
    title: 'A red shirt',
    madeBy: 'Drawn for this page; the clothes changer itself runs on the engine this server configures.',
    output: '/examples/clothes-result.png',
    inputs: { mode: 'separates' },
    files: [
      { field: 'model', src: '/examples/clothes-model.png' },
      { field: 'upper', src: '/examples/clothes-shirt.png' },
    ],
  },
];

export function examplesOf(screen: ExampleScreen): PlaygroundExample[] {
  return PLAYGROUND_EXAMPLES.filter((e) => e.screen === screen);
}
