// The products the site offers and the playground routes that serve them (SPEC.md §2 playground children).

/** The five video pages share one screen, told apart by this type (SPEC.md §2). */
export type VideoType = 'image' | 'text' | 'character' | 'translate' | 'lipSync';

export interface Product {
  /** Path segment under /playground, exactly as SPEC.md §2 names it. */
  slug: string;
  title: string;
  summary: string;
  category: 'Audio' | 'Video' | 'Image';
  /** Set for the five pages that share the video screen. */
  videoType?: VideoType;
}

export const PRODUCTS: readonly Product[] = [
  {
    slug: 'speech',
    title: 'Text to Speech',
    category: 'Audio',
    summary: 'Turn text into natural speech in many voices and languages.',
  },
  {
    slug: 'voiceClone',
    title: 'Voice Clone',
    category: 'Audio',
    summary: 'Clone a voice from a short sample and speak any text with it.',
  },
  {
    slug: 'dialogue',
    title: 'Dialogue',
    category: 'Audio',
    summary: 'Give each speaker a voice and get one conversation as audio.',
  },
  {
    slug: 'dialogueContent',
    title: 'Dialogue Script',
    category: 'Audio',
    summary: 'Draft a dialogue script from a topic, then voice it.',
  },
  {
    slug: 'imageToVideo',
    title: 'Image to Video',
    category: 'Video',
    videoType: 'image',
    summary: 'Bring a still image to life with motion from a prompt.',
  },
  {
    slug: 'textToVideo',
    title: 'Text to Video',
    category: 'Video',
    videoType: 'text',
    summary: 'Describe a scene and get a short video clip.',
  },
  {
    slug: 'characterToVideo',
    title: 'Character to Video',
    category: 'Video',
    videoType: 'character',
    summary: 'Make a portrait or sample model talk with your audio or script.',
  },
  {
    slug: 'videoTranslate',
    title: 'Video Translate',
    category: 'Video',
    videoType: 'translate',
    summary: 'Translate the speech in a video, with or without lip sync.',
  },
  {
    slug: 'lipSync',
    title: 'Lip Sync',
    category: 'Video',
    videoType: 'lipSync',
    summary: 'Match the lips in a video to a new audio track.',
  },
  {
    slug: 'alClothesChanger',
    title: 'AI Clothes Changer',
    category: 'Image',
    summary: 'Dress a model photo in the garments you choose.',
  },
];

export function productBySlug(slug: string): Product | undefined {
  return PRODUCTS.find((product) => product.slug === slug);
}
