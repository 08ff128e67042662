// The sample avatar models the playground offers (SPEC.md §3).

/** Sample avatar models of SPEC.md §3 (name, desc, id, src), served from public/models/. */
export const SAMPLE_MODELS = [
  {
    id: 'model-emma',
    name: 'Emma',
    desc: 'Friendly presenter with shoulder-length hair, warm studio light',
    src: '/models/emma.svg',
  },
  {
    id: 'model-james',
    name: 'James',
    desc: 'Business host in a navy suit, neutral office background',
    src: '/models/james.svg',
  },
  {
    id: 'model-sofia',
    name: 'Sofia',
    desc: 'Energetic creator with curly hair, bright casual style',
    src: '/models/sofia.svg',
  },
  {
    id: 'model-daniel',
    name: 'Daniel',
    desc: 'Calm narrator with glasses and a beard, soft daylight',
    src: '/models/daniel.svg',
  },
] as const;
