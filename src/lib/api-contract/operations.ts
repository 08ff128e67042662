// Metadata of every public API route (path, summary, request and answer schemas, examples, errors): the OpenAPI source.
import {
  DIRECT_UPLOADS,
  IDEMPOTENCY,
  IMAGE_ASPECT_RATIOS,
  MEDIA_LIMITS,
  PUBLIC_TOOLS,
  RUN_OPTIONS,
  SAMPLE_MODELS,
  TASK_LIMITS,
  TEXT_TO_VIDEO_OPTIONS,
  UPLOAD_SCENES,
  VIDEO_ASPECT_RATIOS,
  VOICES,
  type PublicTool,
} from '../product-rules';
import { PUBLIC_TOOL_BODIES, reqIdBody, rotateBody, taskIdBody, uploadSceneBody } from './task-schemas';
import type { ErrorKey } from './errors';
import { DEVELOPER_OPERATIONS } from './developer-operations';
import { streamOperation } from './live-status';
import type { Operation, Tag } from './operation-shape';
import {
  remainingCreditsData,
  submitData,
  taskResult,
  uploadAckData,
  uploadFinishData,
  uploadForm,
  uploadPolicyData,
  webhookSecretData,
} from './schemas';

export type { Operation, Tag };

const voiceIds = VOICES.map((v) => v.id).join(', ');
const authErrors: ErrorKey[] = ['notLoggedIn', 'rateLimited', 'internal'];
const submitErrors: ErrorKey[] = [
  'illegalParameter',
  'invalidInput',
  'notLoggedIn',
  'insufficientCredits',
  'keyCapReached',
  'forbidden',
  'suspended',
  'conflict',
  'payloadTooLarge',
  'unsupportedMediaType',
  'rateLimited',
  'internal',
  'featureUnavailable',
];

const callbackField = {
  callbackUrl: 'An http(s) URL on a public host; the finished task is POSTed there, signed (see Webhooks)',
};
/** A task id as the server makes them (crypto.randomUUID), so examples look like real answers. */
const EXAMPLE_TASK_ID = 'b3c1e9a4-7d2f-4c8e-9a51-6f0d2e8b4c17';
const submitExample = (credits: number) => ({ taskId: EXAMPLE_TASK_ID, status: 'queued', credits });

interface ToolDoc {
  id: string;
  tag: Tag;
  summary: string;
  description: string;
  example: Record<string, unknown>;
  fields: Record<string, string>;
  credits: number;
}

const speechFields = {
  text: `What to say, 1 to ${TASK_LIMITS.maxTextChars} characters`,
  audioId: `A voice id: ${voiceIds}`,
  lan: 'A language (e.g. en-US, fr); picks its default voice when audioId is not given',
  speed: `Words per minute, ${RUN_OPTIONS.speed.min} to ${RUN_OPTIONS.speed.max}`,
  pitch: `Pitch, ${RUN_OPTIONS.pitch.min} (low) to ${RUN_OPTIONS.pitch.max} (high); ${RUN_OPTIONS.pitch.default} is the voice's own (only where the serving engine supports it)`,
};
/** The clip fields text2video, img2video and character2video share with the playground. */
const clipFields = {
  resolution: `${TEXT_TO_VIDEO_OPTIONS.map((o) => o.resolution)
    .filter((r, i, all) => all.indexOf(r) === i)
    .join(
      ', ',
    )} (default 720p); with duration, one of ${TEXT_TO_VIDEO_OPTIONS.map((o) => `${o.durationS}s ${o.resolution}`).join(', ')}, each priced as its text-to-video row`,
  duration: 'Seconds, 4 (default) or 8',
  aspectRatio: `${VIDEO_ASPECT_RATIOS.join(', ')} (only where the serving engine supports it)`,
  seed: 'A seed for repeatable results (only where the serving engine supports it)',
  negativePrompt: 'What to avoid (only where the serving engine supports it)',
};
const lipsyncFields = {
  srcVideoUrl: 'The video whose lips move (an uploaded file URL is best: its length sets the estimate)',
  audioUrl: 'The speech to lip-sync to',
  vocalAudioUrl: 'Optional isolated vocals of audioUrl',
  videoParams: 'Output size, enhancement and frame rate',
};

/** One entry per DreamAPI tool of POST /api/async/<tool> (PUBLIC_TOOLS). */
const TOOL_DOCS: Record<PublicTool, ToolDoc> = {
  do_tts_common: {
    id: 'ttsCommon',
    tag: 'Speech',
    summary: 'Text to speech',
    description: 'Speaks a text with one of the voices. Charged per 250 characters.',
    example: { text: 'Hello from the API', audioId: 'en-us-female-1' },
    fields: speechFields,
    credits: 1,
  },
  do_tts_pro: {
    id: 'ttsPro',
    tag: 'Speech',
    summary: 'Text to speech (Pro)',
    description: 'The Pro speech tier, with the same fields. Charged per 200 characters.',
    example: { text: 'Hello from the API', audioId: 'en-gb-male-1' },
    fields: speechFields,
    credits: 1,
  },
  voice_clone: {
    id: 'voiceClone',
    tag: 'Speech',
    summary: 'Clone a voice',
    description: 'Makes a voice from a recording; the result carries a cloneId for do_tts_clone. Free.',
    example: { voiceUrl: 'https://example.com/voice.wav' },
    fields: { voiceUrl: 'A clean recording of the voice' },
    credits: 0,
  },
  do_tts_clone: {
    id: 'ttsClone',
    tag: 'Speech',
    summary: 'Speak with a cloned voice',
    description: 'Speaks a text with a voice made by voice_clone. Charged as Text to speech.',
    example: { cloneId: 'clone_123', text: 'Hello in my own voice' },
    fields: { cloneId: 'The cloneId of a finished voice_clone task', text: speechFields.text, lan: speechFields.lan },
    credits: 1,
  },
  dialogue: {
    id: 'dialogue',
    tag: 'Speech',
    summary: 'Dialogue',
    description: `A conversation of up to ${TASK_LIMITS.maxDialogueSpeakers} speakers in one audio file, each line spoken in its speaker's voice. Charged as Text to speech on the characters of every line.`,
    example: {
      lines: [
        { speaker: 'Alex', text: 'Hi Sam!' },
        { speaker: 'Sam', text: 'Hi Alex, how are you?' },
      ],
      voices: { Alex: 'en-us-female-1', Sam: 'en-gb-male-1' },
    },
    fields: {
      lines: `The lines in order, each {speaker, text}; at most ${TASK_LIMITS.maxDialogueLines}`,
      voices: `A voice id per speaker: ${voiceIds}`,
      speed: speechFields.speed,
      pitch: speechFields.pitch,
    },
    credits: 1,
  },
  talking_face: {
    id: 'talkingFace',
    tag: 'Video',
    summary: 'Talking face',
    description: 'Makes a face in a video speak an audio track. Charged per second of output.',
    example: { srcVideoUrl: 'https://example.com/face.mp4', audioUrl: 'https://example.com/speech.wav' },
    fields: lipsyncFields,
    credits: 1,
  },
  lipsync: {
    id: 'lipsync',
    tag: 'Video',
    summary: 'Lip sync',
    description: 'Re-times the lips of a video to a new audio track. Charged per second of output.',
    example: { srcVideoUrl: 'https://example.com/face.mp4', audioUrl: 'https://example.com/speech.wav' },
    fields: lipsyncFields,
    credits: 1,
  },
  talking_image: {
    id: 'talkingImage',
    tag: 'Video',
    summary: 'Talking image',
    description: 'Animates a portrait photo (up to 1280×1280) to speak an audio track. Charged per second.',
    example: { photoUrl: 'https://example.com/portrait.png', audioUrl: 'https://example.com/speech.wav' },
    fields: {
      photoUrl: 'A portrait photo, up to 1280×1280',
      modelId: `Instead of a photo, a sample model: ${SAMPLE_MODELS.map((m) => m.id).join(', ')} (only the preview engine draws them)`,
      audioUrl: 'The speech',
    },
    credits: 2,
  },
  'video_translate/2.0': {
    id: 'videoTranslate',
    tag: 'Video',
    summary: 'Translate a video',
    description: 'Dubs a video into another language, with lip-sync unless enableLipSync is false. Charged per second.',
    example: { videoUrl: 'https://example.com/talk.mp4', targetLanguage: 'es' },
    fields: {
      videoUrl: 'The video to translate',
      sourceLanguage: 'Its spoken language; detected when missing',
      targetLanguage: 'The language to dub into',
      enableLipSync: 'Re-time the lips too (default true); false dubs the voice only',
    },
    credits: 3,
  },
  'wan/text_to_video/2.1': {
    id: 'wanTextToVideo',
    tag: 'Video',
    summary: 'Wan2.1 text to video',
    description: 'A 5-second clip from a prompt with Wan2.1, at 480p or 720p.',
    example: { prompt: 'A paper boat drifting down a rainy street', resolution: '480p' },
    fields: {
      prompt: `What to show, up to ${TASK_LIMITS.maxPromptChars} characters`,
      negativePrompt: 'What to avoid',
      resolution: '480p (default) or 720p',
      seed: 'A seed for repeatable results',
    },
    credits: 15,
  },
  'wan/image_to_video/2.1': {
    id: 'wanImageToVideo',
    tag: 'Video',
    summary: 'Wan2.1 image to video',
    description: 'A 5-second clip that starts from an image, with Wan2.1.',
    example: { image: 'https://example.com/still.png', prompt: 'The camera slowly pans right', resolution: '480p' },
    fields: {
      image: 'The first frame',
      prompt: `How it moves, up to ${TASK_LIMITS.maxPromptChars} characters`,
      resolution: '480p (default) or 720p',
    },
    credits: 15,
  },
  img2video: {
    id: 'imageToVideo',
    tag: 'Video',
    summary: 'Image to video',
    description: 'A clip that brings an image to life: 4 seconds at 720p unless duration and resolution say otherwise.',
    example: { prompt: 'Leaves sway in the wind', imgUrl: 'https://example.com/still.png' },
    fields: {
      prompt: `How it moves, up to ${TASK_LIMITS.maxPromptChars} characters`,
      imgUrl: 'The image',
      ...clipFields,
    },
    credits: 60,
  },
  text2video: {
    id: 'textToVideo',
    tag: 'Video',
    summary: 'Text to video',
    description:
      'A clip from a prompt, in a general or anime style: 4 seconds at 720p unless duration and resolution say otherwise.',
    example: { prompt: 'A lighthouse at dawn, waves rolling in', style: 'general' },
    fields: {
      prompt: `What to show, up to ${TASK_LIMITS.maxPromptChars} characters`,
      style: 'general (default) or anime',
      ...clipFields,
    },
    credits: 60,
  },
  character2video: {
    id: 'characterToVideo',
    tag: 'Video',
    summary: 'Character to video',
    description:
      'A sample model (modelId) or your portrait (imgUrl) acting out a script: 4 seconds at 720p unless duration and resolution say otherwise.',
    example: { prompt: 'Waves and says hello to the camera', modelId: 'model-emma' },
    fields: {
      prompt: `What the character says or does, up to ${TASK_LIMITS.maxPromptChars} characters`,
      modelId: `A sample model: ${SAMPLE_MODELS.map((m) => m.id).join(', ')}`,
      imgUrl: 'A portrait to use instead of a sample model',
      ...clipFields,
    },
    credits: 60,
  },
  tryon_clothes: {
    id: 'tryonClothes',
    tag: 'Image',
    summary: 'AI try-on',
    description: 'Dresses a model photo in garments: an upper and/or lower garment, or a one-piece.',
    example: { modelImageUrl: 'https://example.com/model.png', upperUrl: 'https://example.com/shirt.png' },
    fields: {
      modelImageUrl: 'A full-body photo of the model',
      upperUrl: 'An upper garment',
      lowerUrl: 'A lower garment',
      onePieceUrl: 'A one-piece garment (give at least one garment)',
    },
    credits: 25,
  },
  image_generation: {
    id: 'imageGeneration',
    tag: 'Image',
    summary: 'Generate images',
    description: `Makes 1 to ${TASK_LIMITS.maxImagesPerTask} images from a prompt. Charged per image.`,
    example: { prompt: 'A lighthouse at dusk, watercolour', count: 2, aspectRatio: '16:9' },
    fields: {
      prompt: `What to draw, up to ${TASK_LIMITS.maxPromptChars} characters`,
      count: `How many images, 1 to ${TASK_LIMITS.maxImagesPerTask} (default 1)`,
      aspectRatio: `${IMAGE_ASPECT_RATIOS.join(', ')} (default 1:1)`,
      seed: 'A seed for repeatable results',
    },
    credits: 2,
  },
  erase: {
    id: 'erase',
    tag: 'Image',
    summary: 'Erase objects',
    description: 'Removes what a mask marks from an image and fills the gap.',
    example: { imageUrl: 'https://example.com/photo.png', maskUrl: 'https://example.com/mask.png' },
    fields: {
      imageUrl: 'The image to clean up',
      maskUrl: 'A black-and-white mask of the same size; white marks what to remove',
    },
    credits: 1,
  },
  face_swap: {
    id: 'faceSwap',
    tag: 'Image',
    summary: 'Face swap',
    description: 'Puts the face of one photo into another.',
    example: { imageUrl: 'https://example.com/scene.png', faceImageUrl: 'https://example.com/face.png' },
    fields: { imageUrl: 'The picture to change', faceImageUrl: 'A photo of the face to put in' },
    credits: 3,
  },
  restore: {
    id: 'restore',
    tag: 'Image',
    summary: 'Restore a photo',
    description: 'Sharpens and repairs faces in an old or blurry photo.',
    example: { imageUrl: 'https://example.com/old-photo.jpg' },
    fields: { imageUrl: 'The photo to restore' },
    credits: 3,
  },
  video_matting: {
    id: 'videoMatting',
    tag: 'Video',
    summary: 'Video matting',
    description: 'Removes the background of a video behind its people. Charged per second of output.',
    example: { videoUrl: 'https://example.com/dance.mp4' },
    fields: { videoUrl: 'The video (an uploaded file URL is best: its length sets the estimate)' },
    credits: 1,
  },
  do_stt: {
    id: 'sttCommon',
    tag: 'Speech',
    summary: 'Speech to text',
    description:
      'Transcribes an audio file; the result carries the transcript in `text`. Charged per started minute of audio.',
    example: { audioUrl: 'https://example.com/meeting.mp3' },
    fields: {
      audioUrl: 'The recording (an uploaded file URL is best: its length sets the estimate)',
      lan: 'Its language (e.g. en-US), or a list of them as DreamAPI takes it (the first is used); detected when missing',
    },
    credits: 1,
  },
  do_stt_pro: {
    id: 'sttPro',
    tag: 'Speech',
    summary: 'Speech to text (Pro)',
    description:
      'The Pro transcription tier, which also tells speakers apart; the transcript is in `text`. Charged per started minute.',
    example: { audioUrl: 'https://example.com/meeting.mp3' },
    fields: {
      audioUrl: 'The recording (an uploaded file URL is best: its length sets the estimate)',
      lan: 'Its language (e.g. en-US), or a list of them as DreamAPI takes it (the first is used); detected when missing',
    },
    credits: 2,
  },
};

function toolOperation(tool: PublicTool): Operation {
  const doc = TOOL_DOCS[tool];
  return {
    id: doc.id,
    method: 'post',
    path: `/api/async/${tool}`,
    tag: doc.tag,
    summary: doc.summary,
    description: `${doc.description} Answers at once with a taskId; poll getAsyncResult or pass a callbackUrl.`,
    auth: 'bearer',
    request: {
      schema: PUBLIC_TOOL_BODIES[tool],
      contentType: 'application/json',
      example: doc.example,
      fields: { ...doc.fields, ...callbackField },
    },
    response: { schema: submitData, example: submitExample(doc.credits) },
    errors: submitErrors,
    submit: true,
  };
}

const resultExample = {
  task: {
    taskId: EXAMPLE_TASK_ID,
    status: 3,
    statusName: 'succeeded',
    reason: '',
    taskType: 'do_tts_common',
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

/** Every public route, in the order the reference lists them. */
export const OPERATIONS: readonly Operation[] = [
  ...(Object.keys(PUBLIC_TOOLS) as PublicTool[]).map(toolOperation),
  {
    id: 'getAsyncResult',
    method: 'post',
    path: '/api/getAsyncResult',
    tag: 'Tasks',
    summary: 'Get a task result',
    description: "The task's status, cost and, once it succeeded, signed URLs of its files (valid for 24 hours).",
    auth: 'bearer',
    request: {
      schema: taskIdBody,
      contentType: 'application/json',
      example: { taskId: EXAMPLE_TASK_ID },
      fields: { taskId: 'The taskId a submit answered with' },
    },
    response: { schema: taskResult, example: resultExample },
    errors: ['illegalParameter', 'notLoggedIn', 'notFound', 'rateLimited', 'internal'],
  },
  streamOperation({ schema: taskResult, example: resultExample }),
  {
    id: 'cancelAsyncTask',
    method: 'post',
    path: '/api/cancelAsyncTask',
    tag: 'Tasks',
    summary: 'Cancel a task',
    description:
      'Cancels a queued or running task and refunds its credits; answers with the task. A finished task answers 409.',
    auth: 'bearer',
    request: {
      schema: taskIdBody,
      contentType: 'application/json',
      example: { taskId: EXAMPLE_TASK_ID },
      fields: { taskId: 'The task to cancel' },
    },
    response: {
      schema: taskResult,
      example: {
        ...resultExample,
        task: {
          ...resultExample.task,
          status: 4,
          statusName: 'canceled',
          reason: 'Canceled by the user',
          credits: 0,
          creditsCharged: 0,
        },
        audios: [],
      },
    },
    errors: ['illegalParameter', 'notLoggedIn', 'notFound', 'conflict', 'rateLimited', 'internal'],
  },
  {
    id: 'remainingCredits',
    method: 'post',
    path: '/api/remaining_credits',
    tag: 'Account',
    summary: 'Remaining credits',
    description: "The credit balance of the key's account. Free.",
    auth: 'bearer',
    request: undefined,
    response: { schema: remainingCreditsData, example: { remainingCredits: 120 } },
    errors: authErrors,
  },
  {
    id: 'webhookSecret',
    method: 'post',
    path: '/api/webhook_secret',
    tag: 'Account',
    summary: 'Webhook signing secret',
    description:
      'The secret that signs your webhooks, made on first use. {"rotate": true} replaces it (the old one stops at once).',
    auth: 'bearer',
    request: {
      schema: rotateBody,
      contentType: 'application/json',
      example: {},
      fields: { rotate: 'Make a new secret (default false)' },
    },
    response: { schema: webhookSecretData, example: { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } },
    errors: ['invalidInput', ...authErrors],
  },
  {
    id: 'getUploadPolicy',
    method: 'post',
    path: '/api/file/v1/get_policy',
    tag: 'Uploads',
    summary: 'Upload step 1: get a policy',
    description: `A one-use upload policy, valid for ${MEDIA_LIMITS.uploadPolicyTtlMs / 60_000} minutes: POST the file to host with its fields (step 2), then call policy_upload_finish (step 3). When the server keeps media in an S3 bucket, host is the bucket and fields its presigned POST, valid for ${DIRECT_UPLOADS.formTtlS / 60} minutes.`,
    auth: 'bearer',
    request: {
      schema: uploadSceneBody,
      contentType: 'application/json',
      example: { scene: 'audio' },
      fields: { scene: `What may be uploaded: ${Object.keys(UPLOAD_SCENES).join(', ')} (default any)` },
    },
    response: {
      schema: uploadPolicyData,
      example: {
        reqId: '3b241101-e2bb-4255-8caf-4136c566a962',
        host: 'https://api.example.com/api/file/v1/upload',
        expireAt: 1760003600000,
        fields: { reqId: '3b241101-e2bb-4255-8caf-4136c566a962', signature: 'mR0x…' },
        accept: ['audio'],
      },
    },
    errors: ['illegalParameter', 'suspended', ...authErrors],
  },
  {
    id: 'uploadFile',
    method: 'post',
    path: '/api/file/v1/upload',
    tag: 'Uploads',
    summary: 'Upload step 2: send the file',
    description:
      "Step 2 of an upload, sent to the policy's host: multipart/form-data with the policy's fields, then the file last in \"file\"; the fields authorise it, no API key needed. A bucket host answers S3's 204 instead of this envelope.",
    auth: 'signature',
    request: {
      schema: uploadForm,
      contentType: 'multipart/form-data',
      example: { reqId: '3b241101-e2bb-4255-8caf-4136c566a962', signature: 'mR0x…', file: '@voice.wav' },
    },
    response: { schema: uploadAckData, example: { reqId: '3b241101-e2bb-4255-8caf-4136c566a962' } },
    errors: [
      'invalidInput',
      'forbidden',
      'suspended',
      'payloadTooLarge',
      'unsupportedMediaType',
      'rateLimited',
      'internal',
    ],
  },
  {
    id: 'finishUpload',
    method: 'post',
    path: '/api/file/v1/policy_upload_finish',
    tag: 'Uploads',
    summary: 'Upload step 3: get the file URL',
    description: 'The URL of the uploaded file, to pass to a tool, with its type, size and length.',
    auth: 'bearer',
    request: {
      schema: reqIdBody,
      contentType: 'application/json',
      example: { reqId: '3b241101-e2bb-4255-8caf-4136c566a962' },
      fields: { reqId: 'The reqId of the policy' },
    },
    response: {
      schema: uploadFinishData,
      example: {
        url: 'https://api.example.com/media/ab12cd.wav?exp=1760086400000&sig=…',
        fileId: 'ab12cd',
        mime: 'audio/wav',
        size: 88244,
        durationS: 2,
      },
    },
    errors: ['illegalParameter', 'notLoggedIn', 'notFound', 'conflict', 'rateLimited', 'internal'],
  },
  ...DEVELOPER_OPERATIONS,
  {
    id: 'openApiDocument',
    method: 'get',
    path: '/api/openapi.json',
    tag: 'Meta',
    summary: 'OpenAPI document',
    description: 'The OpenAPI 3.1 description of this API, generated from the schemas the server validates with.',
    auth: 'none',
    response: { schema: null, example: { openapi: '3.1.0', info: { title: 'DreamAPI', version: '1' } } },
    errors: [],
  },
];

/** Header of idempotent submits (IDEMPOTENCY in src/lib/product-rules). */
export const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  description: `1 to ${IDEMPOTENCY.maxKeyLength} visible ASCII characters. The same key and body within ${IDEMPOTENCY.ttlMs / 3_600_000} hours answers with the same task (header Idempotent-Replayed: true) and is charged once; another body answers 409.`,
};

export function operationById(id: string): Operation | undefined {
  return OPERATIONS.find((o) => o.id === id);
}
