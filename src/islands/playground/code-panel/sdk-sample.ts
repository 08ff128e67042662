// The JavaScript sample of a run: the platform's own SDK (src/lib/sdk) submits the call, waits for the task and prints its result.
import { OPERATIONS, type OperationId } from '../../../lib/sdk';
import { callPath, type ApiCall, type CallOutput } from './calls';

/** The SDK method of a tool: the operation whose path is the tool's (the SDK's tests hold it to the OpenAPI document). */
export function sdkMethod(call: Pick<ApiCall, 'tool'>): OperationId {
  const path = callPath(call);
  const hit = (Object.entries(OPERATIONS) as Array<[OperationId, { path: string }]>).find(([, o]) => o.path === path);
  if (!hit) throw new Error(`no SDK operation for ${path}`);
  return hit[0];
}

const PRINT: Record<CallOutput, string> = {
  audio: 'console.log(result.audios[0]?.audioUrl);',
  video: 'console.log(result.videos[0]?.videoUrl);',
  image: 'console.log(result.images[0]?.imageUrl);',
  clone: 'console.log(result.cloneId); // pass it to client.ttsClone({ cloneId, text })',
};

const json = (value: unknown) => JSON.stringify(value, null, 2);

export function sdkSample(call: ApiCall, baseUrl: string, key: string): string {
  return [
    '// The TypeScript SDK of this platform: src/lib/sdk in its repository (Node 18+ or a browser).',
    'import { createDreamApiClient } from "./sdk/index.js";',
    '',
    `const client = createDreamApiClient({ apiKey: ${json(key)}, baseUrl: ${json(baseUrl)} });`,
    `const { taskId } = await client.${sdkMethod(call)}(${json(call.body)});`,
    'const result = await client.waitForTask(taskId);',
    PRINT[call.output],
  ].join('\n');
}
