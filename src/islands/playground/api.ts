// The playground calls of server/routes/playground.ts (session token, JSON, §8 envelope) and the upload with progress.
import { ApiError, apiBase, apiRequest } from '../../lib/api';
import { API_CODES, MESSAGES, STORAGE_KEYS, TASK_ERROR_CODES, type Feature, type MediaKind } from '../../lib/spec';
import { local } from '../../lib/storage';

import type { MediaInfo, TaskView } from '../../lib/api/types';

export type { TaskView, TaskOutputView as TaskOutput } from '../../lib/api/types';

/** What an upload answers (the same shape the server's media service returns). */
export type UploadedMedia = MediaInfo;

export interface FeatureState {
  feature: Feature;
  available: boolean;
  engine: string | null;
}

export interface SampleModel {
  id: string;
  name: string;
  desc: string;
  src: string;
}

const BASE = '/api-playground';
const post = <T>(path: string, body: Record<string, unknown>) => apiRequest<T>(`${BASE}${path}`, body, { json: true });

/** GETs with the same headers and envelope handling as apiRequest (which only POSTs). */
async function get<T>(path: string): Promise<T> {
  const res = await fetch(`${apiBase()}${BASE}${path}`, { headers: { token: local.get(STORAGE_KEYS.userToken) ?? '' } });
  const body = (await res.json().catch(() => ({}))) as { code?: number; msg?: string; data?: T };
  if (body.code === API_CODES.ok) return body.data as T;
  throw new ApiError(body.msg || MESSAGES.failed, typeof body.code === 'number' ? body.code : null);
}

export const playgroundApi = {
  features: () => get<{ list: FeatureState[] }>('/task/v1/features').then((d) => d.list),
  models: () => get<{ list: SampleModel[] }>('/vih_model/v1/model_list').then((d) => d.list),
  tts: (b: { text: string; voiceId: string; quality: 'common' | 'pro' }) => post<TaskView>('/speech/v1/tts', b),
  ttsClone: (b: { cloneId: string; text: string }) => post<TaskView>('/speech/v1/tts_clone', b),
  voiceClone: (b: { voiceUrl: string }) => post<TaskView>('/speech/v1/voice_clone', b),
  dialogue: (b: { lines: Array<{ speaker: string; text: string }>; voices: Record<string, string> }) => post<TaskView>('/speech/v1/dialogue', b),
  animate: (b: { type: 'image' | 'text' | 'character'; prompt: string; imageUrl?: string; modelId?: string; resolution: string; duration: number }) =>
    post<TaskView>('/video_tools/v1/animate_video', b),
  translate: (lipSync: boolean, b: { videoUrl: string; sourceLanguage?: string; targetLanguage: string }) =>
    post<TaskView>(`/did_video_task/v1/${lipSync ? 'translate_lip_submit' : 'translate_submit'}`, b),
  talkingFace: (b: { audioUrl: string; imageUrl?: string; videoUrl?: string; modelId?: string }) => post<TaskView>('/talking_face/v1/create_task', b),
  clothes: (b: { modelImageUrl: string; upperUrl?: string; lowerUrl?: string; onePieceUrl?: string }) => post<TaskView>('/clothes_changer/v1/create_task', b),
  poll: (taskId: string) => post<TaskView>('/video_tools/v1/poll', { taskId }),
  cancel: (taskId: string) => post<TaskView>('/video_tools/v1/cancel', { taskId }),
  remove: (taskId: string) => post<null>('/video_tools/v1/delete', { taskId }),
  list: (b: { page: number; pageSize: number; feature?: Feature }) => post<{ list: TaskView[]; total: number }>('/video_tools/v1/get_list', b),
};

export const isInsufficientCredits = (e: unknown) => e instanceof ApiError && e.code === TASK_ERROR_CODES.insufficientCredits;
export const isNotLoggedIn = (e: unknown) => e instanceof ApiError && e.code === API_CODES.notLoggedIn;

/**
 * Uploads one file as multipart `file`; XMLHttpRequest rather than fetch because only it reports upload
 * progress. Resolves with the stored media, rejects with an ApiError carrying the server's message.
 */
export function uploadFile(file: Blob, scene: MediaKind, onProgress: (fraction: number) => void, name = 'upload'): Promise<UploadedMedia> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${apiBase()}${BASE}/file/v1/upload`);
    xhr.setRequestHeader('token', local.get(STORAGE_KEYS.userToken) ?? '');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new ApiError(MESSAGES.networkError, null));
    xhr.onload = () => {
      let body: { code?: number; msg?: string; data?: UploadedMedia } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // A proxy's HTML error page: fall through to the generic message.
      }
      if (body.code === API_CODES.ok && body.data) {
        onProgress(1);
        resolve(body.data);
      } else reject(new ApiError(body.msg || MESSAGES.failed, typeof body.code === 'number' ? body.code : null));
    };
    const form = new FormData();
    form.append('scene', scene);
    form.append('file', file, name);
    xhr.send(form);
  });
}
