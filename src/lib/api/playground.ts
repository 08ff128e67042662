// Typed playground calls (server/routes/playground.ts): session token, JSON bodies, the §8 envelope, and uploads with
// progress.
import type { Feature, MediaKind } from '../product-rules';
import { apiRequest } from './client';
import type { FeatureState, MediaInfo, SampleModel, TaskView } from './types';

const BASE = '/api-playground';

const post = <T>(path: string, body: Record<string, unknown>) => apiRequest<T>(`${BASE}${path}`, body, { json: true });
const get = <T>(path: string) => apiRequest<T>(`${BASE}${path}`, {}, { method: 'GET' });

export const playgroundApi = {
  features: () => get<{ list: FeatureState[] }>('/task/v1/features').then((d) => d.list),
  models: () => get<{ list: SampleModel[] }>('/vih_model/v1/model_list').then((d) => d.list),
  tts: (b: { text: string; voiceId: string; quality: 'common' | 'pro'; speed?: number; pitch?: number }) =>
    post<TaskView>('/speech/v1/tts', b),
  ttsClone: (b: { cloneId: string; text: string }) => post<TaskView>('/speech/v1/tts_clone', b),
  voiceClone: (b: { voiceUrl: string }) => post<TaskView>('/speech/v1/voice_clone', b),
  dialogue: (b: {
    lines: Array<{ speaker: string; text: string }>;
    voices: Record<string, string>;
    speed?: number;
    pitch?: number;
  }) => post<TaskView>('/speech/v1/dialogue', b),
  animate: (b: {
    type: 'image' | 'text' | 'character';
    prompt: string;
    imageUrl?: string;
    modelId?: string;
    resolution: string;
    duration: number;
    aspectRatio?: string;
    seed?: number;
    negativePrompt?: string;
  }) => post<TaskView>('/video_tools/v1/animate_video', b),
  translate: (lipSync: boolean, b: { videoUrl: string; sourceLanguage?: string; targetLanguage: string }) =>
    post<TaskView>(`/did_video_task/v1/${lipSync ? 'translate_lip_submit' : 'translate_submit'}`, b),
  talkingFace: (b: { audioUrl: string; imageUrl?: string; videoUrl?: string; modelId?: string }) =>
    post<TaskView>('/talking_face/v1/create_task', b),
  clothes: (b: { modelImageUrl: string; upperUrl?: string; lowerUrl?: string; onePieceUrl?: string }) =>
    post<TaskView>('/clothes_changer/v1/create_task', b),
  poll: (taskId: string) => post<TaskView>('/video_tools/v1/poll', { taskId }),
  cancel: (taskId: string) => post<TaskView>('/video_tools/v1/cancel', { taskId }),
  remove: (taskId: string, o: { keepalive?: boolean } = {}) =>
    apiRequest<null>(`${BASE}/video_tools/v1/delete`, { taskId }, { json: true, ...o }),
  list: (b: { page: number; pageSize: number; feature?: Feature; features?: readonly Feature[]; q?: string }) =>
    post<{ list: TaskView[]; total: number }>('/video_tools/v1/get_list', b),
  /**
   * One file with its scene; progress as it goes, no time limit unless timeoutMs (REQUEST.uploadTimeoutMs). Straight to
   * the bucket when the server offers a policy, else to the server (playground-upload.ts, loaded with the first file).
   */
  upload: (
    file: Blob,
    scene: MediaKind,
    onProgress: (fraction: number) => void,
    name = 'upload',
    timeoutMs?: number,
  ): Promise<MediaInfo> =>
    import('./playground-upload').then((m) => m.playgroundUpload(BASE, file, scene, onProgress, name, timeoutMs)),
};
