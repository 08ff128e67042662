// Serves the built static site: clean URLs to index.html, long caching for hashed assets, a CSP per page.
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Context, MiddlewareHandler } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { pagePolicy } from '../http/security';

interface PageFile {
  file: string;
  size: number;
  mtimeMs: number;
}

// Astro writes the policy in double quotes; its values contain single quotes ('self', 'sha256-…').
const META_CSP = /<meta[^>]+http-equiv="content-security-policy"[^>]*content="([^"]+)"/i;

/** Maps a URL path to candidate files under the site root, refusing anything that escapes it. */
function candidates(root: string, urlPath: string): string[] {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return [];
  }
  if (decoded.includes('\0')) return [];
  const resolved = path.resolve(root, '.' + path.posix.normalize('/' + decoded));
  if (resolved !== root && !resolved.startsWith(root + path.sep)) return [];
  return path.extname(resolved) ? [resolved] : [path.join(resolved, 'index.html'), resolved + '.html'];
}

async function findFile(files: string[]): Promise<PageFile | undefined> {
  for (const file of files) {
    const info = await stat(file).catch(() => undefined);
    if (info?.isFile()) return { file, size: info.size, mtimeMs: info.mtimeMs };
  }
  return undefined;
}

export interface StaticSiteOptions {
  root: string;
  /** Extra origins pages may connect to (the API and tracking hosts when they differ from the site). */
  connectSources?: readonly string[];
}

export function staticSite(options: StaticSiteOptions): {
  serve: MiddlewareHandler;
  notFoundPage: (c: Context) => Promise<Response | undefined>;
} {
  const root = path.resolve(options.root);
  const connect = options.connectSources ?? [];
  const policyCache = new Map<string, { mtimeMs: number; policy: string }>();

  async function policyFor(page: PageFile): Promise<string> {
    const cached = policyCache.get(page.file);
    if (cached && cached.mtimeMs === page.mtimeMs) return cached.policy;
    const html = await readFile(page.file, 'utf8');
    const policy = pagePolicy(META_CSP.exec(html)?.[1], connect);
    policyCache.set(page.file, { mtimeMs: page.mtimeMs, policy });
    return policy;
  }

  async function respond(c: Context, page: PageFile, status: 200 | 404): Promise<Response> {
    const type = getMimeType(page.file) ?? 'application/octet-stream';
    const etag = `W/"${page.size.toString(16)}-${Math.floor(page.mtimeMs).toString(16)}"`;
    const headers = new Headers({ 'Content-Type': type, ETag: etag });
    const hashedAsset = c.req.path.startsWith('/_astro/');
    headers.set(
      'Cache-Control',
      hashedAsset ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
    );
    if (type.startsWith('text/html')) headers.set('Content-Security-Policy', await policyFor(page));
    if (status === 200 && c.req.header('if-none-match') === etag) return new Response(null, { status: 304, headers });
    headers.set('Content-Length', String(page.size));
    if (c.req.method === 'HEAD') return new Response(null, { status, headers });
    const body = Readable.toWeb(createReadStream(page.file)) as ReadableStream;
    return new Response(body, { status, headers });
  }

  const serve: MiddlewareHandler = async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const page = await findFile(candidates(root, c.req.path));
    if (!page) return next();
    return respond(c, page, 200);
  };

  /** The site's 404 page (it sends the browser to /), for GETs that no file or route answered. */
  async function notFoundPage(c: Context): Promise<Response | undefined> {
    const page = await findFile([path.join(root, '404.html')]);
    return page ? respond(c, page, 404) : undefined;
  }

  return { serve, notFoundPage };
}
