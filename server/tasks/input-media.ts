// Fetches a task's input media for an engine: this server's own signed URLs from the store, others over HTTP with caps.
import { EngineInputError, type InputMedia } from '../engines/types';
import { OutboundRefused, outboundFetch, type OutboundPolicy, type OutboundResponse } from '../http/outbound';
import { signedLinkParams, type MediaService } from '../media';
import { probeMedia } from '../media/probe';
import { PREVIEW } from '../../src/lib/product-rules';
import type { MediaKind } from '../../src/lib/product-rules';

export interface InputReaderOptions {
  media: MediaService;
  publicUrl: string;
  /** Which hosts outside URLs may point at (server/http/outbound.ts; private ones only with OUTBOUND_ALLOW_PRIVATE). */
  outbound: OutboundPolicy;
}

/** Downloads through the outbound guard: every redirect hop is checked, size and time are capped. */
async function fetchCapped(url: string, signal: AbortSignal, policy: OutboundPolicy): Promise<Buffer> {
  let response: OutboundResponse;
  try {
    response = await outboundFetch(
      url,
      { signal: AbortSignal.any([signal, AbortSignal.timeout(PREVIEW.fetchTimeoutMs)]), followRedirects: true },
      policy,
    );
  } catch (error) {
    if (error instanceof OutboundRefused) throw new EngineInputError(`input URL ${url} ${error.problem}`);
    throw error;
  }
  if (!response.ok) {
    response.close();
    throw new EngineInputError(`could not download ${url}: HTTP ${response.status}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > PREVIEW.maxFetchBytes) {
      response.close();
      throw new EngineInputError(`${url} is larger than ${PREVIEW.maxFetchBytes / (1024 * 1024)} MB`);
    }
    chunks.push(chunk);
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
      const opened = await o.media.open(
        id,
        signedLinkParams((name) => parsed.searchParams.get(name)),
      );
      if (!opened)
        throw new EngineInputError(`the media link ${url} has expired or is not valid; upload the file again`);
      data = Buffer.from(opened.data);
    } else {
      data = await fetchCapped(url, signal, o.outbound);
    }
    const sniffed = await probeMedia(data, { signal });
    if (!sniffed) throw new EngineInputError(`${url} is not a recognised media file`);
    if (!kinds.includes(sniffed.kind))
      throw new EngineInputError(`${url} is ${sniffed.mime}, but ${kinds.join(' or ')} is expected`);
    return { data, mime: sniffed.mime, kind: sniffed.kind, durationS: sniffed.durationS, url };
  };
}
