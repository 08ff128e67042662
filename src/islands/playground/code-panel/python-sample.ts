// The Python sample of a run (requests): submit, then ask for the result every second until the task ends, and print
// it.
import { pythonLiteral } from '../../../lib/reference/samples';
import { callPath, type ApiCall, type CallOutput } from './calls';

const PRINT: Record<CallOutput, string> = {
  audio: 'print(result["audios"][0]["audioUrl"])',
  video: 'print(result["videos"][0]["videoUrl"])',
  image: 'print(result["images"][0]["imageUrl"])',
  clone: 'print(result["cloneId"])  # pass it to do_tts_clone with a text',
};

export function pythonRunSample(call: ApiCall, baseUrl: string, key: string): string {
  const body = pythonLiteral(call.body);
  return [
    'import time',
    '',
    'import requests',
    '',
    `API = ${JSON.stringify(baseUrl)}`,
    `HEADERS = {"Authorization": ${JSON.stringify(`Bearer ${key}`)}}`,
    '',
    '',
    'def call(path, body):',
    '    answer = requests.post(API + path, headers=HEADERS, json=body, timeout=30).json()',
    '    if answer["code"] != 0:',
    '        raise RuntimeError(answer["message"])',
    '    return answer["data"]',
    '',
    '',
    `task_id = call(${JSON.stringify(callPath(call))}, ${body})["taskId"]`,
    'result = call("/api/getAsyncResult", {"taskId": task_id})',
    '# status: 1 queued, 2 running, 3 succeeded, 4 failed or canceled',
    'while result["task"]["status"] < 3:',
    '    time.sleep(1)',
    '    result = call("/api/getAsyncResult", {"taskId": task_id})',
    'if result["task"]["status"] == 4:',
    '    raise RuntimeError(result["task"]["reason"])',
    PRINT[call.output],
  ].join('\n');
}
