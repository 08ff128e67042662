// How the ElevenLabs stand-in (elevenlabs.fixtures.ts) sees a request: its modes, the call it records, multipart
// bodies parsed as ElevenLabs would, and answers that say they were given.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendFile, sendJson, sendProxyErrorPage } from '../../test-support/provider-fakes';

export type Mode = 'ok' | 'gated' | 'fail' | 'hang' | 'malformed' | 'rate-limited' | 'new-status' | 'quota' | 'busy';
type FormValue = string | { name: string; type: string; size: number };

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  key: string | undefined;
  json?: Record<string, unknown>;
  form?: Record<string, FormValue>;
}

/** Multipart bodies are parsed as ElevenLabs would: text fields, and files with their name, type and size. */
export async function parseBody(req: IncomingMessage, body: Buffer): Promise<Pick<Call, 'json' | 'form'>> {
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('application/json')) return { json: JSON.parse(body.toString()) as Record<string, unknown> };
  if (!type.startsWith('multipart/form-data')) return {};
  const form: Record<string, FormValue> = {};
  for (const [name, value] of await new Response(new Uint8Array(body), {
    headers: { 'content-type': type },
  }).formData()) {
    form[name] = typeof value === 'string' ? value : { name: value.name, type: value.type, size: value.size };
  }
  return { form };
}

/** The stand-in's answers, each true (answered) so a surface can tell its caller it took the request. */
export function answers(res: ServerResponse) {
  return {
    send: (status: number, value: unknown, headers: Record<string, string> = {}) => (
      sendJson(res, status, value, headers),
      true
    ),
    html: () => (sendProxyErrorPage(res), true),
    file: (file: string, type: string, headers?: Record<string, string>) => (sendFile(res, file, type, headers), true),
  };
}
