// Typed playground calls (server/routes/playground.ts): session token, JSON bodies, the §8 envelope, and uploads with progress.
import type { z } from 'zod';
import { REQUEST, type Feature, type MediaKind } from '../spec';
import type { uploadPolicyData } from '../api-contract/schemas';
import { apiRequest } from './client';
import type { FeatureState, MediaInfo, SampleModel, TaskView } from './types';
import { apiUpload, storageUpload } from './upload';

const BASE = '/api-playground';

type UploadPolicy = z.infer<typeof uploadPolicyData>;

/** The share of the bar the bytes fill; the rest is the server's check on finish. */
const FINISHING = 0.95;

/** A policy's fields, then the file last (S3 reads no field after it); its own type where the policy's family allows. */
function directForm(policy: UploadPolicy, file: Blob, name: string): FormData {
  const form = new FormData();
  for (const [field, value] of Object.entries(policy.fields)) {
    // "audio/" and the like name the family the policy takes; a policy of several kinds takes any type.
    const family = value.endsWith('/') ? value : '';
    form.append(field, field === 'Content-Type' && file.type !== '' && file.type.startsWith(family) ? file.type : value);
  }
  form.append('file', file, name);
  return form;
}

const post = <T>(path: string, body: Record<string, unknown>) => apiRequest<T>(`${BASE}${path}`, body, { json: true });
const get = <T>(path: string) => apiRequest<T>(`${BASE}${path}`, {}, { method: 'GET' });

export const playgroundApi = {
  features: () => get<{ list: FeatureState[] }>('/task/v1/features').then((d) => d.list),
  models: () => get<{ list: SampleModel[] }>('/vih_model/v1/model_list').then((d) => d.list),
  tts: (b: { text: string; voiceId: string; quality: 'common' | 'pro'; speed?: number; pitch?: number }) => post<TaskView>('/speech/v1/tts', b),
  ttsClone: (b: { cloneId: string; text: string }) => post<TaskView>('/speech/v1/tts_clone', b),
  voiceClone: (b: { voiceUrl: string }) => post<TaskView>('/speech/v1/voice_clone', b),
  dialogue: (b: { lines: Array<{ speaker: string; text: string }>; voices: Record<string, string>; speed?: number; pitch?: number }) =>
    post<TaskView>('/speech/v1/dialogue', b),
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
  talkingFace: (b: { audioUrl: string; imageUrl?: string; videoUrl?: string; modelId?: string }) => post<TaskView>('/talking_face/v1/create_task', b),
  clothes: (b: { modelImageUrl: string; upperUrl?: string; lowerUrl?: string; onePieceUrl?: string }) => post<TaskView>('/clothes_changer/v1/create_task', b),
  poll: (taskId: string) => post<TaskView>('/video_tools/v1/poll', { taskId }),
  cancel: (taskId: string) => post<TaskView>('/video_tools/v1/cancel', { taskId }),
  remove: (taskId: string, o: { keepalive?: boolean } = {}) => apiRequest<null>(`${BASE}/video_tools/v1/delete`, { taskId }, { json: true, ...o }),
  list: (b: { page: number; pageSize: number; feature?: Feature; features?: readonly Feature[]; q?: string }) =>
    post<{ list: TaskView[]; total: number }>('/video_tools/v1/get_list', b),
  /**
   * One file with its scene; progress as it goes, no time limit unless timeoutMs (REQUEST.uploadTimeoutMs). When the
   * server offers a policy (its media is in a bucket) the file goes straight to the bucket and the server checks it
   * on finish; otherwise it goes to the server as multipart `file`.
   */
  upload: async (file: Blob, scene: MediaKind, onProgress: (fraction: number) => void, name = 'upload', timeoutMs?: number): Promise<MediaInfo> => {
    const policy = await post<UploadPolicy | null>('/file/v1/get_policy', { scene });
    if (!policy) {
      const form = new FormData();
      form.append('scene', scene);
      form.append('file', file, name);
      return apiUpload<MediaInfo>(`${BASE}/file/v1/upload`, form, { onProgress, timeoutMs });
    }
    await storageUpload(policy.host, directForm(policy, file, name), { onProgress: (f) => onProgress(Math.min(f, FINISHING)), timeoutMs });
    // Finish fetches and measures what arrived, as a pass-through upload is measured: the same time limit.
    const media = await apiRequest<MediaInfo>(
      `${BASE}/file/v1/policy_upload_finish`,
      { reqId: policy.reqId },
      { json: true, timeoutMs: timeoutMs ?? REQUEST.uploadTimeoutMs },
    );
    onProgress(1);
    return media;
  },
};
