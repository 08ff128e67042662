// Code samples of one API operation in curl, JavaScript (fetch) and Python (requests), with the caller's base URL and
// key.

/** What a sample needs to know about an operation; plain JSON so it can be an island prop. */
export interface SampleSpec {
  method: 'get' | 'post';
  path: string;
  auth: 'bearer' | 'signature' | 'none';
  contentType?: 'application/json' | 'multipart/form-data';
  example?: Record<string, unknown>;
  /** False for answers outside the {code, message, data} envelope (the OpenAPI document). */
  envelope: boolean;
  /** Server-Sent Events (the live status stream): the samples print the events as they arrive. */
  stream?: boolean;
}

export type SampleLanguage = 'curl' | 'javascript' | 'python';
export const SAMPLE_LANGUAGES: ReadonlyArray<{ id: SampleLanguage; label: string }> = [
  { id: 'curl', label: 'curl' },
  { id: 'javascript', label: 'JavaScript' },
  { id: 'python', label: 'Python' },
];

/** Shown in place of a key when nobody is signed in. */
export const KEY_PLACEHOLDER = 'YOUR_API_KEY';

/** A string as a single-quoted POSIX shell word (a quote inside becomes '\''). */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

const json = (value: unknown, indent = 2) => JSON.stringify(value, null, indent);

/** JSON to Python literal syntax (True/False/None), keeping the JSON layout. */
export function pythonLiteral(value: unknown): string {
  return json(value, 4).replace(
    /("(?:[^"\\]|\\.)*")|\b(true|false|null)\b/g,
    (_match, str: string | undefined, word: string | undefined) => {
      if (str) return str;
      return word === 'true' ? 'True' : word === 'false' ? 'False' : 'None';
    },
  );
}

/** Form fields of a multipart sample; a value starting with @ names a local file. */
function formFields(example: Record<string, unknown>): Array<{ name: string; value: string; file: boolean }> {
  return Object.entries(example).map(([name, v]) => {
    const value = String(v);
    return { name, value: value.replace(/^@/, ''), file: value.startsWith('@') };
  });
}

export function curlSample(spec: SampleSpec, baseUrl: string, key: string): string {
  const lines = [
    `curl -sS${spec.stream ? 'N' : ''} ${spec.method === 'get' ? '' : '-X POST '}${shellQuote(baseUrl + spec.path)}`,
  ];
  if (spec.auth === 'bearer') lines.push(`-H ${shellQuote(`Authorization: Bearer ${key}`)}`);
  if (spec.contentType === 'multipart/form-data') {
    for (const f of formFields(spec.example ?? {}))
      lines.push(`-F ${shellQuote(`${f.name}=${f.file ? '@' : ''}${f.value}`)}`);
  } else if (spec.method === 'post') {
    lines.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(spec.example ?? {}))}`);
  }
  return lines.join(' \\\n  ');
}

export function javascriptSample(spec: SampleSpec, baseUrl: string, key: string): string {
  const headers: string[] = [];
  if (spec.auth === 'bearer') headers.push(`Authorization: ${json(`Bearer ${key}`)}`);
  const out: string[] = [];
  let body = '';
  if (spec.contentType === 'multipart/form-data') {
    out.push('const form = new FormData();');
    for (const f of formFields(spec.example ?? {})) {
      out.push(
        f.file
          ? `form.append(${json(f.name)}, fileInput.files[0], ${json(f.value)});`
          : `form.append(${json(f.name)}, ${json(f.value)});`,
      );
    }
    body = '  body: form,\n';
  } else if (spec.method === 'post') {
    // Double quotes throughout, as JSON.stringify writes the body's strings: one quote style per sample.
    headers.push(`${json('Content-Type')}: ${json('application/json')}`);
    body = `  body: JSON.stringify(${json(spec.example ?? {}).replaceAll('\n', '\n  ')}),\n`;
  }
  out.push(
    `const res = await fetch(${json(baseUrl + spec.path)}, {`,
    `  method: ${json(spec.method.toUpperCase())},`,
    ...(headers.length ? ['  headers: {', ...headers.map((h) => `    ${h},`), '  },'] : []),
    ...(body ? [body.trimEnd()] : []),
    '});',
    ...(spec.stream
      ? [
          'const events = res.body.pipeThrough(new TextDecoderStream()).getReader();',
          'for (let part = await events.read(); !part.done; part = await events.read()) console.log(part.value);',
        ]
      : spec.envelope
        ? [
            'const answer = await res.json();',
            'if (answer.code !== 0) throw new Error(answer.message);',
            'console.log(answer.data);',
          ]
        : ['console.log(await res.json());']),
  );
  return out.join('\n');
}

export function pythonSample(spec: SampleSpec, baseUrl: string, key: string): string {
  const headers: string[] = [];
  if (spec.auth === 'bearer') headers.push(`"Authorization": ${json(`Bearer ${key}`)}`);
  const args = [json(baseUrl + spec.path)];
  const out = ['import requests', ''];
  if (headers.length) args.push('headers={' + headers.join(', ') + '}');
  if (spec.contentType === 'multipart/form-data') {
    const fields = formFields(spec.example ?? {});
    args.push(
      'data={' +
        fields
          .filter((f) => !f.file)
          .map((f) => `${json(f.name)}: ${json(f.value)}`)
          .join(', ') +
        '}',
    );
    args.push(
      'files={' +
        fields
          .filter((f) => f.file)
          .map((f) => `${json(f.name)}: open(${json(f.value)}, "rb")`)
          .join(', ') +
        '}',
    );
  } else if (spec.method === 'post') {
    args.push(`json=${pythonLiteral(spec.example ?? {})}`);
  }
  if (spec.stream) args.push('stream=True');
  out.push(
    `res = requests.${spec.method}(`,
    ...args.map((a) => `    ${a.replaceAll('\n', '\n    ')},`),
    '    timeout=30,',
    ')',
  );
  if (spec.stream) out.push('for line in res.iter_lines():', '    print(line.decode())');
  else if (spec.envelope)
    out.push(
      'answer = res.json()',
      'if answer["code"] != 0:',
      '    raise RuntimeError(answer["message"])',
      'print(answer["data"])',
    );
  else out.push('print(res.json())');
  return out.join('\n');
}

export function sample(language: SampleLanguage, spec: SampleSpec, baseUrl: string, key: string): string {
  if (language === 'curl') return curlSample(spec, baseUrl, key);
  if (language === 'javascript') return javascriptSample(spec, baseUrl, key);
  return pythonSample(spec, baseUrl, key);
}
