// Reads a text/event-stream body (the WHATWG event-stream format) event by event; works in Node 18+ and browsers, over
// fetch.

export interface SseEvent {
  /** The `event:` field; 'message' when the event named none. */
  event: string;
  data: string;
  /** The last `id:` seen so far on the stream (sent again as Last-Event-ID to resume). */
  id: string | null;
}

/**
 * Yields each event of the body as it arrives; comments (heartbeats) and `retry:` yield nothing. Ends when the body
 * ends; throws when the connection breaks. Parsing follows the HTML standard's rules: lines end in CRLF, LF or CR,
 * one space after the colon is dropped, data lines are joined by newlines, an event without data is not dispatched.
 */
export async function* readEvents(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  let buffer = '';
  let id: string | null = null;
  let event = '';
  let data: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.search(/\r\n|\r|\n/)) >= 0) {
        // A CR at the very end may be half of a CRLF still on its way.
        if (buffer[end] === '\r' && end === buffer.length - 1) break;
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n'), id };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const raw = colon < 0 ? '' : line.slice(colon + 1);
        const val = raw.startsWith(' ') ? raw.slice(1) : raw;
        if (field === 'event') event = val;
        else if (field === 'data') data.push(val);
        else if (field === 'id' && !val.includes('\0')) id = val;
      }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Left early (the caller stopped reading): the connection is closed rather than left to fill.
    void reader.cancel().catch(() => undefined);
  }
}
