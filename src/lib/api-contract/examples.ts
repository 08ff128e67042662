// Example values the documented operations share, so the reference's examples look like real answers.

/** A task id as the server makes them (crypto.randomUUID), so examples look like real answers. */
export const EXAMPLE_TASK_ID = 'b3c1e9a4-7d2f-4c8e-9a51-6f0d2e8b4c17';
/** How long the examples' media are taken to be, for the credits their submit answers show. */
export const EXAMPLE_MEDIA_SECONDS = 10;
export const submitExample = (credits: number) => ({ taskId: EXAMPLE_TASK_ID, status: 'queued', credits });

export const resultExample = {
  task: {
    taskId: EXAMPLE_TASK_ID,
    status: 3,
    statusName: 'succeeded',
    reason: '',
    taskType: 'do_tts_common',
    engine: 'espeak',
    engineLabel: 'eSpeak NG (no AI model)',
    executionTime: 231,
    progress: 100,
    credits: 1,
    creditsHeld: 1,
    creditsCharged: 1,
    createdAt: 1760000000000,
    outputsExpired: false,
    outputsExpiredAt: null,
  },
  images: [],
  videos: [],
  audios: [
    { audioUrl: 'https://api.example.com/media/ab12cd.wav?exp=1760086400000&sig=…', audioType: 'wav', duration: 2.4 },
  ],
  cloneId: null,
  text: null,
};
