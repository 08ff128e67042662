// Request and answer types of the public API, written against its OpenAPI document (GET /api/openapi.json).
// Type-only imports: the SDK carries no runtime dependency on the rest of the site.
import type { ImageAspectRatio, VideoAspectRatio } from '../product-rules';

export type TaskStatusName = 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled';

interface Callback {
  /** http(s) URL on a public host; the finished task is POSTed there, signed (see verifyWebhook). */
  callbackUrl?: string;
}
export interface TtsRequest extends Callback {
  text: string;
  audioId?: string;
  lan?: string;
  speed?: number;
  pitch?: number;
}
export interface DialogueRequest extends Callback {
  lines: Array<{ speaker: string; text: string }>;
  voices: Record<string, string>;
  speed?: number;
  pitch?: number;
}
/** A §9 text-to-video row (4 s 720p by default) and the advanced settings the serving engine may honour. */
interface Clip {
  resolution?: '512p' | '720p' | '1080p';
  duration?: 4 | 8;
  aspectRatio?: VideoAspectRatio;
  seed?: number;
  negativePrompt?: string;
}
export interface VoiceCloneRequest extends Callback {
  voiceUrl: string;
}
export interface TtsCloneRequest extends Callback {
  cloneId: string;
  text: string;
  lan?: string;
}
export interface LipsyncRequest extends Callback {
  srcVideoUrl: string;
  audioUrl: string;
  vocalAudioUrl?: string;
  videoParams?: { video_width?: number; video_height?: number; video_enhance?: number; fps?: 'original' | number };
}
export interface TalkingImageRequest extends Callback {
  photoUrl?: string;
  modelId?: string;
  audioUrl: string;
}
export interface VideoTranslateRequest extends Callback {
  videoUrl: string;
  sourceLanguage?: string;
  targetLanguage: string;
  enableLipSync?: boolean;
}
export interface WanTextToVideoRequest extends Callback {
  prompt: string;
  negativePrompt?: string;
  resolution?: '480p' | '720p';
  seed?: number;
}
export interface WanImageToVideoRequest extends Callback {
  image: string;
  prompt: string;
  resolution?: '480p' | '720p';
}
export interface ImageToVideoRequest extends Callback, Clip {
  prompt: string;
  imgUrl: string;
}
export interface TextToVideoRequest extends Callback, Clip {
  prompt: string;
  style?: 'general' | 'anime';
}
export interface CharacterToVideoRequest extends Callback, Clip {
  prompt: string;
  modelId?: string;
  imgUrl?: string;
}
export interface TryonRequest extends Callback {
  modelImageUrl: string;
  upperUrl?: string;
  lowerUrl?: string;
  onePieceUrl?: string;
}
export interface ImageGenerationRequest extends Callback {
  prompt: string;
  count?: number;
  aspectRatio?: ImageAspectRatio;
  seed?: number;
}
export interface EraseRequest extends Callback {
  imageUrl: string;
  maskUrl: string;
}
export interface FaceSwapRequest extends Callback {
  imageUrl: string;
  faceImageUrl: string;
}
export interface RestoreRequest extends Callback {
  imageUrl: string;
}
export interface VideoMattingRequest extends Callback {
  videoUrl: string;
}
export interface SttRequest extends Callback {
  audioUrl: string;
  lan?: string | string[];
}

export interface Submitted {
  taskId: string;
  status: TaskStatusName;
  credits: number;
}

export interface TaskResult {
  task: {
    taskId: string;
    /** 1 submitted, 2 in progress, 3 success, 4 failure (failed or canceled). */
    status: 1 | 2 | 3 | 4;
    statusName: TaskStatusName;
    reason: string;
    taskType: string;
    executionTime: number;
    progress: number;
    credits: number;
    creditsHeld: number;
    creditsCharged: number | null;
    createdAt: number;
  };
  images: Array<{ imageUrl: string; imageType: string }>;
  videos: Array<{ videoUrl: string; videoType: string }>;
  audios: Array<{ audioUrl: string; audioType: string; duration: number | null }>;
  cloneId: string | null;
  /** The transcript of a speech-to-text task; null otherwise. */
  text: string | null;
}

export interface UploadPolicy {
  reqId: string;
  host: string;
  expireAt: number;
  /**
   * Form fields to send before the file: this server's reqId and signature, or a storage bucket's presigned POST
   * fields.
   */
  fields: Record<string, string>;
  accept: Array<'audio' | 'image' | 'video'>;
}
export interface UploadedFile {
  url: string;
  fileId: string;
  mime: string;
  size: number;
  durationS: number | null;
}
export type UploadScene = 'Dream-TTS' | 'Dream-CN' | 'audio' | 'image' | 'video' | 'any';

/** The body of a task webhook. */
export interface WebhookEvent {
  type: 'task.succeeded' | 'task.failed' | 'task.canceled';
  timestamp: string;
  data: TaskResult;
}

export type * from './developer-types';
