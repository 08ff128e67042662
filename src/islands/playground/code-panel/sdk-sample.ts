// The JavaScript samples of a run: with the platform's SDK package (submit, then wait over the live status stream), and
// with plain fetch for people without it (submit, then poll getAsyncResult until the task ends).
import { OPERATIONS, type OperationId } from '../../../lib/sdk/index';
import { SDK_PACKAGE } from '../../../lib/product-rules';
import { callPath, type ApiCall, type CallOutput } from './calls';

/**
 * The SDK method of a tool: the operation whose path is the tool's (the SDK's tests hold it to the OpenAPI document).
 */
export function sdkMethod(call: Pick<ApiCall, 'tool'>): OperationId {
  const path = callPath(call);
  const hit = (Object.entries(OPERATIONS) as Array<[OperationId, { path: string }]>).find(([, o]) => o.path === path);
  if (!hit) throw new Error(`no SDK operation for ${path}`);
  return hit[0];
}

/** Where each kind of result is in getAsyncResult's data (docs/public-api.md). */
const PRINT: Record<CallOutput, string> = {
  audio: 'console.log(result.audios[0]?.audioUrl);',
  video: 'console.log(result.videos[0]?.videoUrl);',
  image: 'console.log(result.images[0]?.imageUrl);',
  clone: 'console.log(result.cloneId); // pass it to ttsClone with a text',
};

const json = (value: unknown) => JSON.stringify(value, null, 2);

export function sdkSample(call: ApiCall, baseUrl: string, key: string): string {
  return [
    `// npm install ${SDK_PACKAGE.name}   (or from this server: npm install ${baseUrl}${SDK_PACKAGE.tarballPath})`,
    `import { createDreamApiClient } from "${SDK_PACKAGE.name}";`,
    '',
    `const client = createDreamApiClient({ apiKey: ${json(key)}, baseUrl: ${json(baseUrl)} });`,
    `const { taskId } = await client.${sdkMethod(call)}(${json(call.body)});`,
    "// Follows the task's live status (polling when no stream can be had) until it ends.",
    'const result = await client.wait(taskId);',
    'if (result.task.statusName !== "succeeded") throw new Error(result.task.reason);',
    PRINT[call.output],
  ].join('\n');
}

/** Node 18+ or a browser, nothing to install: submit, then ask for the result every second until the task ends. */
export function fetchSample(call: ApiCall, baseUrl: string, key: string): string {
  return [
    `const headers = { Authorization: ${json(`Bearer ${key}`)}, "Content-Type": "application/json" };`,
    'async function api(path, body) {',
    `  const res = await fetch(${json(baseUrl)} + path, { method: "POST", headers, body: JSON.stringify(body) });`,
    '  const answer = await res.json();',
    '  if (answer.code !== 0) throw new Error(answer.message);',
    '  return answer.data;',
    '}',
    '',
    `const { taskId } = await api(${json(callPath(call))}, ${json(call.body)});`,
    'let result = await api("/api/getAsyncResult", { taskId });',
    '// status: 1 queued, 2 running, 3 succeeded, 4 failed or canceled',
    'while (result.task.status < 3) {',
    '  await new Promise((resolve) => setTimeout(resolve, 1000));',
    '  result = await api("/api/getAsyncResult", { taskId });',
    '}',
    'if (result.task.status === 4) throw new Error(result.task.reason);',
    PRINT[call.output],
  ].join('\n');
}
