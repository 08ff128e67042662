// Fetches a task's input media for an engine: this server's own signed URLs from the store, others over HTTP with caps.
import { EngineInputError, type InputMedia } from '../engines/types';
import type { MediaService } from '../media';
import { sniffMedia } from '../media/sniff';
import { PREVIEW } from '../../src/lib/spec/engines';
import type { MediaKind } from '../../src/lib/spec/tasks';
import { callbackUrlProblem } from './webhooks';

export interface InputReaderOptions {
  media: MediaService;
  publicUrl: string;
  /** Same switch as webhooks: fetching localhost and private addresses is for tests and development only. */
  allowPrivate: boolean;
}

async function fetchCapped(url: string, signal: AbortSignal): Promise<Buffer> {
  const response = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(PREVIEW.fetchTimeoutMs)]), redirect: 'follow' });
  if (!response.ok || !response.body) throw new EngineInputError(`could not download ${url}: HTTP ${response.status}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > PREVIEW.maxFetchBytes) throw new EngineInputError(`${url} is larger than ${PREVIEW.maxFetchBytes / (1024 * 1024)} MB`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

export function inputReader(o: InputReaderOptions) {
  const own = `${o.publicUrl}/media/`;
  return async function readInput(url: string, kinds: readonly MediaKind[], signal: AbortSignal): Promise<InputMedia> {
    let data: Buffer;
    if (url.startsWith(own)) {
      const parsed = new URL(url);
      const id = /\/media\/([A-Za-z0-9]+)\./.exec(parsed.pathname)?.[1] ?? '';
      const opened = await o.media.open(id, parsed.searchParams.get('exp') ?? undefined, parsed.searchParams.get('sig') ?? undefined);
      if (!opened) throw new EngineInputError(`the media link ${url} has expired or is not valid; upload the file again`);
      data = Buffer.from(opened.data);
    } else {
      const problem = callbackUrlProblem(url, o.allowPrivate);
      if (problem) throw new EngineInputError(`input URL ${url} ${problem}`);
      data = await fetchCapped(url, signal);
    }
    const sniffed = sniffMedia(data);
    if (!sniffed) throw new EngineInputError(`${url} is not a recognised media file`);
    if (!kinds.includes(sniffed.kind)) throw new EngineInputError(`${url} is ${sniffed.mime}, but ${kinds.join(' or ')} is expected`);
    return { data, mime: sniffed.mime, kind: sniffed.kind, durationS: sniffed.durationS, url };
  };
}
