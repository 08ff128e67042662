// Request and answer types of the public API, inferred from the zod schemas its server validates with and its OpenAPI
// document is made from (src/lib/api-contract). Type-only imports: the bundle carries none of them, and the package's
// declarations are written out in full by scripts/build-sdk.mjs, so it needs no zod either.
import type { z } from 'zod';
import type * as C from '../api-contract';
import type { RequestBody as Body } from '../api-contract/request-body';

export type TaskStatusName = z.output<typeof C.submitData>['status'];

export type TtsRequest = Body<typeof C.dreamTts>;
export type DialogueRequest = Body<typeof C.dreamDialogue>;
export type VoiceCloneRequest = Body<typeof C.dreamVoiceClone>;
export type TtsCloneRequest = Body<typeof C.dreamTtsClone>;
export type LipsyncRequest = Body<typeof C.dreamLipsync>;
export type TalkingImageRequest = Body<typeof C.dreamTalkingImage>;
export type VideoTranslateRequest = Body<typeof C.dreamVideoTranslate>;
export type WanTextToVideoRequest = Body<typeof C.dreamWanText>;
export type WanImageToVideoRequest = Body<typeof C.dreamWanImage>;
export type ImageToVideoRequest = Body<typeof C.dreamImg2Video>;
export type TextToVideoRequest = Body<typeof C.dreamText2Video>;
export type CharacterToVideoRequest = Body<typeof C.dreamCharacter2Video>;
export type TryonRequest = Body<typeof C.dreamTryon>;
export type ImageGenerationRequest = Body<typeof C.dreamImageGeneration>;
export type EraseRequest = Body<typeof C.dreamErase>;
export type FaceSwapRequest = Body<typeof C.dreamFaceSwap>;
export type RestoreRequest = Body<typeof C.dreamRestore>;
export type VideoMattingRequest = Body<typeof C.dreamVideoMatting>;
export type SttRequest = Body<typeof C.dreamStt>;
export type TaskIdRequest = Body<typeof C.taskIdBody>;
export type WebhookSecretRequest = Body<typeof C.rotateBody>;
export type UploadPolicyRequest = Body<typeof C.uploadSceneBody>;
export type UploadScene = NonNullable<UploadPolicyRequest['scene']>;
export type FinishUploadRequest = Body<typeof C.reqIdBody>;

export type Submitted = z.output<typeof C.submitData>;
/** The task view of getAsyncResult, cancelAsyncTask, the live status stream and webhooks. */
export type TaskResult = z.output<typeof C.taskResult>;
export type RemainingCredits = z.output<typeof C.remainingCreditsData>;
export type WebhookSecret = z.output<typeof C.webhookSecretData>;
export type UploadPolicy = z.output<typeof C.uploadPolicyData>;
export type UploadAck = z.output<typeof C.uploadAckData>;
export type UploadedFile = z.output<typeof C.uploadFinishData>;
/** The body of a task webhook. */
export type WebhookEvent = z.output<typeof C.webhookEvent>;

export type * from './developer-types';
