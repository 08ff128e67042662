// Typed playground calls (server/routes/playground.ts): session token, JSON bodies, the §8 envelope, and uploads with
// progress.
import type { z } from 'zod';
import type { MediaKind } from '../product-rules';
import type * as C from '../api-contract';
import { PLAYGROUND_PREFIX as BASE } from '../product-rules';
import type { RequestBody } from '../api-contract/request-body';
import { apiRequest, type RequestOptions } from './client';
import type { FeatureList, MediaInfo, SampleModelList, TaskPage, TaskView } from './types';

const post = <T>(path: string, body: object) =>
  apiRequest<T>(`${BASE}${path}`, body as Record<string, unknown>, { json: true });
const get = <T>(path: string) => apiRequest<T>(`${BASE}${path}`, {}, { method: 'GET' });
/** A task submit: its body typed from the schema the route validates it with, answered with the task. */
const submit =
  <S extends z.ZodType>(path: string) =>
  (body: RequestBody<S>) =>
    post<TaskView>(path, body);
type TaskIdBody = RequestBody<typeof C.taskIdBody>;

export const playgroundApi = {
  features: () => get<FeatureList>('/task/v1/features').then((d) => d.list),
  models: () => get<SampleModelList>('/vih_model/v1/model_list').then((d) => d.list),
  tts: submit<typeof C.ttsBody>('/speech/v1/tts'),
  ttsClone: submit<typeof C.ttsCloneBody>('/speech/v1/tts_clone'),
  voiceClone: submit<typeof C.voiceCloneBody>('/speech/v1/voice_clone'),
  dialogue: submit<typeof C.dialogueBody>('/speech/v1/dialogue'),
  animate: submit<typeof C.animateBody>('/video_tools/v1/animate_video'),
  translate: (lipSync: boolean, b: RequestBody<typeof C.translateBody>) =>
    post<TaskView>(`/did_video_task/v1/${lipSync ? 'translate_lip_submit' : 'translate_submit'}`, b),
  talkingFace: submit<typeof C.talkingFaceBody>('/talking_face/v1/create_task'),
  clothes: submit<typeof C.clothesBody>('/clothes_changer/v1/create_task'),
  poll: (taskId: string) => post<TaskView>('/video_tools/v1/poll', { taskId } satisfies TaskIdBody),
  cancel: (taskId: string) => post<TaskView>('/video_tools/v1/cancel', { taskId } satisfies TaskIdBody),
  remove: (taskId: string, o: Pick<RequestOptions, 'keepalive'> = {}) =>
    apiRequest<null>(`${BASE}/video_tools/v1/delete`, { taskId } satisfies TaskIdBody, { json: true, ...o }),
  list: (b: RequestBody<typeof C.listBody>) => post<TaskPage>('/video_tools/v1/get_list', b),
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
