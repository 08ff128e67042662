// Metadata of every public API route (path, summary, request and answer schemas, examples, errors): the OpenAPI source.
import { DIRECT_UPLOADS, IDEMPOTENCY, MEDIA_LIMITS, UPLOAD_SCENES } from '../product-rules';
import { reqIdBody } from './public-task-schemas';
import { rotateBody, taskIdBody, uploadSceneBody } from './call-bodies';
import type { ErrorKey } from './errors';
import { DEVELOPER_OPERATIONS } from './developer-operations';
import { streamOperation } from './live-status';
import type { Operation, Tag } from './operation-shape';
import {
  remainingCreditsData,
  taskResult,
  uploadAckData,
  uploadFinishData,
  uploadForm,
  uploadPolicyData,
  webhookSecretData,
} from './schemas';
import { EXAMPLE_TASK_ID, resultExample } from './examples';
import { TOOL_OPERATIONS } from './tool-operations';

export type { Operation, Tag };

const authErrors: ErrorKey[] = ['notLoggedIn', 'rateLimited', 'internal'];
/** The body of a call about one task: its taskId, described as `doc`. */
const taskIdRequest = (doc: string): Operation['request'] => ({
  schema: taskIdBody,
  contentType: 'application/json',
  example: { taskId: EXAMPLE_TASK_ID },
  fields: { taskId: doc },
});

/** Every public route, in the order the reference lists them. */
export const OPERATIONS: readonly Operation[] = [
  ...TOOL_OPERATIONS,
  {
    id: 'getAsyncResult',
    method: 'post',
    path: '/api/getAsyncResult',
    tag: 'Tasks',
    summary: 'Get a task result',
    description: "The task's status, cost and, once it succeeded, signed URLs of its files (valid for 24 hours).",
    auth: 'bearer',
    request: taskIdRequest('The taskId a submit answered with'),
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
    request: taskIdRequest('The task to cancel'),
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
    description:
      `A one-use upload policy, valid for ${MEDIA_LIMITS.uploadPolicyTtlMs / 60_000} minutes: POST ` +
      `the file to host with its fields (step 2), then call policy_upload_finish (step 3). When the server ` +
      `keeps media in an S3 bucket, host is the bucket and fields its presigned POST, valid for ${DIRECT_UPLOADS.formTtlS / 60} minutes.`,
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
      "Step 2 of an upload, sent to the policy's host: multipart/form-data with the policy's fields, then the " +
      'file last in "file"; the fields authorise it, no API key needed. A bucket host answers S3\'s 204 instead of this envelope.',
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
  description:
    `1 to ${IDEMPOTENCY.maxKeyLength} visible ASCII characters. The same key and body within ` +
    `${IDEMPOTENCY.ttlMs / 3_600_000} hours answers with the same task (header Idempotent-Replayed: true) and is charged once; another body answers 409.`,
};

export function operationById(id: string): Operation | undefined {
  return OPERATIONS.find((o) => o.id === id);
}
