// Code samples: the curl command survives shell quoting, Python gets Python literals, multipart sends files.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlSample, javascriptSample, pythonSample, type SampleSpec } from './samples';

const submit: SampleSpec = {
  method: 'post',
  path: '/api/async/do_tts_common',
  auth: 'bearer',
  contentType: 'application/json',
  example: { text: "It's fine", enableLipSync: true, seed: null },
  envelope: true,
};

describe('samples', () => {
  it('curl quotes the body so the shell passes it through unchanged', () => {
    const curl = curlSample(submit, 'https://api.example.com', 'sk-test');
    // Let the shell parse the command with echo in curl's place and compare the body word.
    const words = execFileSync('sh', ['-c', curl.replace(/^curl /, 'printf "%s\\n" ')], { encoding: 'utf8' })
      .trim()
      .split('\n');
    expect(words).toContain('Authorization: Bearer sk-test');
    expect(JSON.parse(words.at(-1)!)).toEqual(submit.example);
  });

  it('Python uses True and None; JavaScript sends JSON with the key', () => {
    const py = pythonSample(submit, 'https://api.example.com', 'sk-test');
    expect(py).toContain('"enableLipSync": True');
    expect(py).toContain('"seed": None');
    expect(py).toContain('"It\'s fine"');
    const js = javascriptSample(submit, 'https://api.example.com', 'sk-test');
    expect(js).toContain('"Bearer sk-test"');
    expect(js).toContain('JSON.stringify(');
  });

  it('JavaScript samples use one quote style: double quotes, as JSON writes them', () => {
    const js = javascriptSample(
      { ...submit, example: { text: 'Hello', seed: 1 } },
      'https://api.example.com',
      'sk-test',
    );
    expect(js).toContain('"Content-Type": "application/json"');
    expect(js).not.toMatch(/'/);
  });

  it('multipart samples send the file field as a file and need no key', () => {
    const upload: SampleSpec = {
      method: 'post',
      path: '/api/file/v1/upload',
      auth: 'signature',
      contentType: 'multipart/form-data',
      example: { reqId: 'r1', file: '@voice.wav' },
      envelope: true,
    };
    const curl = curlSample(upload, 'https://h', 'sk-test');
    expect(curl).toContain("-F 'file=@voice.wav'");
    expect(curl).not.toContain('Authorization');
    expect(pythonSample(upload, 'https://h', 'k')).toContain('files={"file": open("voice.wav", "rb")}');
  });

  it('a GET without envelope prints the JSON as is', () => {
    const doc: SampleSpec = { method: 'get', path: '/api/openapi.json', auth: 'none', envelope: false };
    expect(curlSample(doc, 'https://h', 'k')).toBe("curl -sS 'https://h/api/openapi.json'");
    expect(javascriptSample(doc, 'https://h', 'k')).not.toContain('answer.code');
  });
});
