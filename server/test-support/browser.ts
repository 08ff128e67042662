// Island tests' network (happy-dom): fetch and XMLHttpRequest answered by the real app in-process (uploads to a bucket
// sent out), each recorded.
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { vi } from 'vitest';

interface InProcessApp {
  request(input: string, init?: RequestInit): Response | Promise<Response>;
}

/**
 * A request an island made: its path, method, headers and body (JSON, form fields, or multipart fields with file
 * facts).
 */
export interface SentRequest {
  path: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface RoutedBrowser {
  sent: SentRequest[];
  /** Bodies of the requests made to `path`, oldest first. */
  bodiesTo(path: string): unknown[];
}

function readBody(body: BodyInit | null | undefined, headers: Record<string, string>): unknown {
  if (body === undefined || body === null) return null;
  if (body instanceof FormData) {
    const fields: Record<string, unknown> = {};
    for (const [key, value] of body.entries()) {
      fields[key] = typeof value === 'string' ? value : { name: value.name, type: value.type, size: value.size };
    }
    return fields;
  }
  if (typeof body !== 'string') return body;
  if ((headers['content-type'] ?? '').includes('json')) return JSON.parse(body) as unknown;
  if ((headers['content-type'] ?? '').includes('urlencoded')) return Object.fromEntries(new URLSearchParams(body));
  return body;
}

function headerRecord(init: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init).forEach((value, key) => (out[key] = value));
  return out;
}

/**
 * An upload to another origin (the storage bucket an upload policy names) goes out for real, over node:http: the
 * page's multipart form, fields in order and the file last, rebuilt byte for byte.
 */
async function sendElsewhere(
  url: URL,
  method: string,
  body: XMLHttpRequestBodyInit | null,
): Promise<{ status: number; text(): Promise<string> }> {
  const boundary = `routed-browser-${randomUUID()}`;
  const parts: Buffer[] = [];
  if (body instanceof FormData) {
    for (const [name, value] of body.entries()) {
      const head =
        typeof value === 'string'
          ? `Content-Disposition: form-data; name="${name}"`
          : `Content-Disposition: form-data; name="${name}"; filename="${value.name}"\r\nContent-Type: ${value.type || 'application/octet-stream'}`;
      const content = typeof value === 'string' ? Buffer.from(value) : Buffer.from(await value.arrayBuffer());
      parts.push(Buffer.from(`--${boundary}\r\n${head}\r\n\r\n`), content, Buffer.from('\r\n'));
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
  }
  const payload = Buffer.concat(parts);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': payload.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: async () => Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Routes the page's fetch and XMLHttpRequest to `app` (undo with vi.unstubAllGlobals()); an upload to another origin
 * goes there. Uploads wait for `holdUploads` when given, so a test can see the upload in progress; the one progress
 * event reports the whole body once it is sent.
 */
export function routeBrowserTo(app: InProcessApp, o: { holdUploads?: Promise<void> } = {}): RoutedBrowser {
  const sent: SentRequest[] = [];
  /** Records the request as sent; answers the path to ask the app for. */
  const record = (input: string, init: RequestInit) => {
    const headers = headerRecord(init.headers);
    const url = new URL(input, location.origin);
    sent.push({ path: url.pathname, method: init.method ?? 'GET', headers, body: readBody(init.body, headers) });
    return url.pathname + url.search;
  };

  class RoutedXhr {
    readonly upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    status = 0;
    responseText = '';
    private method = 'GET';
    private url = '';
    private readonly headers: Record<string, string> = {};

    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }

    setRequestHeader(name: string, value: string) {
      this.headers[name.toLowerCase()] = value;
    }

    send(body: XMLHttpRequestBodyInit | null = null) {
      void (async () => {
        try {
          const init = { method: this.method, headers: this.headers, body };
          const path = record(this.url, init);
          await o.holdUploads;
          const target = new URL(this.url, location.origin);
          const res =
            target.origin === location.origin
              ? await app.request(path, init)
              : await sendElsewhere(target, this.method, body);
          const size =
            body instanceof FormData
              ? [...body.values()].reduce((n, v) => n + (typeof v === 'string' ? v.length : v.size), 0)
              : 0;
          this.upload.onprogress?.({ lengthComputable: true, loaded: size, total: size } as ProgressEvent);
          this.status = res.status;
          this.responseText = await res.text();
          this.onload?.();
        } catch {
          this.onerror?.();
        }
      })();
    }
  }

  vi.stubGlobal('fetch', async (input: string | URL | Request, init: RequestInit = {}) =>
    app.request(record(String(input), init), init),
  );
  vi.stubGlobal('XMLHttpRequest', RoutedXhr);
  return { sent, bodiesTo: (path) => sent.filter((r) => r.path === path).map((r) => r.body) };
}
