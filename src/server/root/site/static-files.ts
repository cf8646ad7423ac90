/**
 * The prerendered site, served from memory. At start every file of the client build is read
 * once with its brotli and gzip variants, and every response header is computed then, so a
 * request costs one Map lookup and one write. Unknown paths get the prerendered 404 page.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import { CONSOLE_PATH, NOT_FOUND_PATH } from '~/content/routes';
import {
  baseSecurityHeaders,
  contentSecurityPolicy,
  isVoicePage,
  subresourceSecurityHeaders,
} from './security-headers';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.pdf': 'application/pdf',
  '.ics': 'text/calendar; charset=utf-8',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
  '.map': 'application/json; charset=utf-8',
  // React Router's data for a prerendered page, fetched when a link to it is followed in the app.
  '.data': 'text/x-script',
};

/** Files whose name, not only their extension, says what they are. */
const NAMED_TYPES: Record<string, string> = {
  '/feed.xml': 'application/atom+xml; charset=utf-8',
};

/** Files a browser only ever uses as subresources, never renders as a document (decision 010). */
const SUBRESOURCES = new Set([
  '.js',
  '.mjs',
  '.css',
  '.png',
  '.jpg',
  '.webp',
  '.avif',
  '.ico',
  '.woff2',
  '.map',
  '.data',
]);

type Variant = {
  body: Buffer;
  headers: string[];
  /** Status line and headers as bytes, without Date and Connection (the fast path adds them). */
  head: Buffer;
  /** The whole keep-alive response of the current second, reused until the Date changes. */
  cached?: { second: number; bytes: Buffer };
};
type Entry = {
  identity: Variant;
  br?: Variant;
  gzip?: Variant;
  etag: string;
  status: number;
  notModified: string[];
  notModifiedHead: Buffer;
};

/** A request the fast path can answer itself (src/server/root/site/fast-static.ts). */
export type RawRequest = {
  head: boolean;
  target: string;
  acceptEncoding: string;
  ifNoneMatch: string | undefined;
  close: boolean;
};

export type StaticSite = {
  /** Serves a GET or HEAD for a known path; returns false when the path is not a file of the site. */
  serve(req: IncomingMessage, res: ServerResponse): boolean;
  /** Serves the 404 page with status 404. */
  serveNotFound(req: IncomingMessage, res: ServerResponse): void;
  /**
   * The whole HTTP/1.1 response, as bytes, to a GET or HEAD of a file of the site; undefined
   * for any other path (decision 012). Same status, headers and body as `serve`.
   */
  rawResponse(request: RawRequest): Buffer | undefined;
  /** Every URL path that answers a page or file (for tests and the benchmark). */
  paths(): string[];
  /**
   * Serves the published pages and files instead of the build's (decision 047), with the same
   * headers as the build's files get; `redirects` answer 301 to their `to`; a path under one of
   * `prefixes` that none of them names is not found. Each call replaces the last.
   */
  publish(publication: {
    files: readonly SiteFile[];
    redirects: readonly { from: string; to: string }[];
    prefixes: readonly string[];
  }): void;
};

const STATUS_LINE: Record<number, string> = {
  200: 'HTTP/1.1 200 OK\r\n',
  301: 'HTTP/1.1 301 Moved Permanently\r\n',
  304: 'HTTP/1.1 304 Not Modified\r\n',
  404: 'HTTP/1.1 404 Not Found\r\n',
};

function rawHead(status: number, flat: string[]): Buffer {
  let text = STATUS_LINE[status] ?? `HTTP/1.1 ${status} \r\n`;
  for (let i = 0; i < flat.length; i += 2) text += `${flat[i]}: ${flat[i + 1]}\r\n`;
  return Buffer.from(text, 'latin1');
}

/** `Date: ...\r\n` for the current second, made once a second. */
let dateSecond = -1;
let dateLine = Buffer.alloc(0);
function currentDate(now: number): { second: number; line: Buffer } {
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateLine = Buffer.from(`Date: ${new Date(second * 1000).toUTCString()}\r\n`, 'latin1');
  }
  return { second, line: dateLine };
}

const END_OF_HEAD = Buffer.from('\r\n', 'latin1');
const CLOSE = Buffer.from('Connection: close\r\n', 'latin1');

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

/** The console's page and the paths under it, all answered with the console's shell. */
export function isConsolePath(urlPath: string): boolean {
  return urlPath === CONSOLE_PATH || urlPath.startsWith(`${CONSOLE_PATH}/`);
}

function cacheControl(rel: string): string {
  if (rel.startsWith('/assets/')) return 'public, max-age=31536000, immutable';
  // The console's shell: never kept by a browser or proxy, like every answer it leads to.
  if (rel === `${CONSOLE_PATH}/index.html`) return 'no-store';
  // The console's service worker: a browser checks it on each visit, so a new one takes over.
  if (rel.endsWith('.html') || rel.endsWith('.data') || rel === `${CONSOLE_PATH}/sw.js`) return 'no-cache';
  return 'public, max-age=3600, must-revalidate';
}

function flatten(headers: [string, string][]): string[] {
  return headers.flat();
}

type SiteOptions = { clientDir: string; scriptHashes: Record<string, readonly string[]>; https: boolean };

/** The security headers of the build's files: a page's, a voice page's, and a script's or a style's. */
type SecurityHeaders = Record<'page' | 'voice' | 'subresource', [string, string][]>;

/** A file of the site: its path from the build's root, its bytes and its compressed copies. */
export type SiteFile = {
  rel: string;
  body: Buffer;
  br?: Buffer;
  gz?: Buffer;
  /** An HTML page's inline scripts, for its CSP; the build's list when left out. */
  scriptHashes?: readonly string[];
};

/**
 * The entry of one file of the site (`rel`, its path from the build's root): the address it
 * answers, its headers, its compressed copies and its answer to a conditional request.
 */
function fileEntry(
  opts: SiteOptions,
  security: SecurityHeaders,
  { rel, body, br, gz, scriptHashes }: SiteFile,
): { urlPath: string; isHtml: boolean; entry: Entry } {
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  const isHtml = rel.endsWith('.html');
  const urlPath = isHtml ? rel.replace(/\/?index\.html$/, '') || '/' : rel;
  const extension = extname(rel);
  // The AI pages, where the voice consultant runs, alone reach the voice provider and may
  // use the microphone.
  const voice = isHtml && isVoicePage(urlPath);
  const documentHeaders: [string, string][] = SUBRESOURCES.has(extension)
    ? [...security.subresource]
    : [
        [
          'Content-Security-Policy',
          contentSecurityPolicy({
            scriptHashes: isHtml ? (scriptHashes ?? opts.scriptHashes[rel] ?? []) : [],
            voice,
            https: opts.https,
            remoteImages: isHtml && urlPath === CONSOLE_PATH,
          }),
        ],
        ...(voice ? security.voice : security.page),
        ...(isHtml && urlPath === CONSOLE_PATH ? ([['X-Robots-Tag', 'noindex']] as [string, string][]) : []),
      ];
  const common: [string, string][] = [
    ['Content-Type', NAMED_TYPES[rel] ?? CONTENT_TYPES[extension] ?? 'application/octet-stream'],
    ['Cache-Control', cacheControl(rel)],
    ['ETag', etag],
    ...documentHeaders,
    // The console's service worker controls /owner itself as well as the pages under it.
    ...(rel === `${CONSOLE_PATH}/sw.js`
      ? ([['Service-Worker-Allowed', CONSOLE_PATH]] as [string, string][])
      : []),
  ];
  const vary: [string, string][] = br || gz ? [['Vary', 'Accept-Encoding']] : [];
  const status = urlPath === NOT_FOUND_PATH ? 404 : 200;
  const variant = (data: Buffer, encoding?: string): Variant => {
    const headers = flatten([
      ...common,
      ...vary,
      ...(encoding ? ([['Content-Encoding', encoding]] as [string, string][]) : []),
      ['Content-Length', String(data.length)],
    ]);
    return { body: data, headers, head: rawHead(status, headers) };
  };
  const entry: Entry = {
    identity: variant(body),
    br: br ? variant(br, 'br') : undefined,
    gzip: gz ? variant(gz, 'gzip') : undefined,
    etag,
    status,
    notModified: flatten([...common, ...vary]),
    notModifiedHead: rawHead(304, flatten([...common, ...vary])),
  };
  return { urlPath, isHtml, entry };
}

/** A permanent redirect to another path of the site (an article's old address). */
function redirectEntry(security: SecurityHeaders, location: string): Entry {
  const headers = flatten([
    ['Location', location],
    // Asked again each time: an address renamed back would otherwise loop in a cache.
    ['Cache-Control', 'no-cache'],
    ...security.subresource,
    ['Content-Length', '0'],
  ]);
  const variant: Variant = { body: Buffer.alloc(0), headers, head: rawHead(301, headers) };
  return {
    identity: variant,
    etag: '',
    status: 301,
    notModified: headers,
    notModifiedHead: variant.head,
  };
}

export function loadStaticSite(opts: SiteOptions): StaticSite {
  const security: SecurityHeaders = {
    page: baseSecurityHeaders(opts.https),
    voice: baseSecurityHeaders(opts.https, { voice: true }),
    subresource: subresourceSecurityHeaders(opts.https),
  };
  const entries = new Map<string, Entry>();
  let notFound: Entry | undefined;

  for (const file of walk(opts.clientDir)) {
    if (file.endsWith('.br') || file.endsWith('.gz')) continue;
    const rel = '/' + relative(opts.clientDir, file).split(sep).join('/');
    if (rel === '/__spa-fallback.html') continue;
    const { urlPath, isHtml, entry } = fileEntry(opts, security, {
      rel,
      body: readFileSync(file),
      br: tryRead(`${file}.br`),
      gz: tryRead(`${file}.gz`),
    });
    if (urlPath === NOT_FOUND_PATH) {
      notFound = entry;
      continue;
    }
    entries.set(urlPath, entry);
    if (isHtml && urlPath !== '/') entries.set(`${urlPath}/`, entry);
  }
  if (!notFound) throw new Error(`The build has no ${NOT_FOUND_PATH} page: run npm run build`);
  const notFoundEntry = notFound;
  const consoleEntry = entries.get(CONSOLE_PATH);

  /**
   * What is published (decision 047): the pages rendered at publication, over the build's, and
   * the prefixes whose paths only they answer (the build's article that is no longer published
   * is not found).
   */
  let published = new Map<string, Entry>();
  let publishedPrefixes: readonly string[] = [];

  /** The entry of a path: its own file, or the console's shell for a path under /owner/. */
  function lookup(target: string): Entry | undefined {
    const q = target.indexOf('?');
    const path = q === -1 ? target : target.slice(0, q);
    const own = published.get(path);
    if (own) return own;
    if (publishedPrefixes.length > 0 && publishedPrefixes.some((prefix) => path.startsWith(prefix))) return undefined;
    return entries.get(path) ?? (consoleEntry && isConsolePath(path) ? consoleEntry : undefined);
  }

  function variantFor(entry: Entry, accept: string): Variant {
    return (
      (entry.br && accepts(accept, 'br') ? entry.br : undefined) ??
      (entry.gzip && accepts(accept, 'gzip') ? entry.gzip : undefined) ??
      entry.identity
    );
  }

  function send(req: IncomingMessage, res: ServerResponse, entry: Entry): void {
    if (entry.status === 301) {
      res.writeHead(301, entry.identity.headers);
      res.end();
      return;
    }
    if (entry.status === 200 && req.headers['if-none-match'] === entry.etag) {
      res.writeHead(304, entry.notModified);
      res.end();
      return;
    }
    const variant = variantFor(entry, req.headers['accept-encoding'] ?? '');
    res.writeHead(entry.status, variant.headers);
    res.end(req.method === 'HEAD' ? undefined : variant.body);
  }

  return {
    serve(req, res) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const entry = lookup(req.url ?? '/');
      if (!entry) return false;
      send(req, res, entry);
      return true;
    },
    serveNotFound(req, res) {
      // The published not-found page once there is one (its footer names the business's details).
      send(req, res, published.get(NOT_FOUND_PATH) ?? notFoundEntry);
    },
    rawResponse({ head, target, acceptEncoding, ifNoneMatch, close }) {
      const entry = lookup(target);
      if (!entry) return undefined;
      const date = currentDate(Date.now());
      if (entry.status === 200 && ifNoneMatch === entry.etag) {
        return Buffer.concat([entry.notModifiedHead, date.line, ...(close ? [CLOSE] : []), END_OF_HEAD]);
      }
      const variant = variantFor(entry, acceptEncoding);
      if (head || close) {
        return Buffer.concat([
          variant.head,
          date.line,
          ...(close ? [CLOSE] : []),
          END_OF_HEAD,
          ...(head ? [] : [variant.body]),
        ]);
      }
      if (variant.cached?.second !== date.second) {
        variant.cached = {
          second: date.second,
          bytes: Buffer.concat([variant.head, date.line, END_OF_HEAD, variant.body]),
        };
      }
      return variant.cached.bytes;
    },
    paths: () => {
      const own = [...entries.keys()].filter((path) => !publishedPrefixes.some((prefix) => path.startsWith(prefix)));
      const publishedPaths = [...published.keys()].filter((path) => !path.startsWith(NOT_FOUND_PATH));
      return [...new Set([...own, ...publishedPaths])];
    },
    publish({ files, redirects, prefixes }) {
      const next = new Map<string, Entry>();
      for (const file of files) {
        const { urlPath, isHtml, entry } = fileEntry(opts, security, file);
        next.set(urlPath, entry);
        if (isHtml && urlPath !== '/') next.set(`${urlPath}/`, entry);
      }
      for (const { from, to } of redirects) {
        if (next.has(from)) continue;
        const entry = redirectEntry(security, to);
        next.set(from, entry);
        next.set(`${from}/`, entry);
      }
      // One assignment each: a request is answered from the old set or the new, never a mix.
      published = next;
      publishedPrefixes = prefixes;
    },
  };
}

function tryRead(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** True when the Accept-Encoding header admits `coding` (an explicit q=0 refuses it). */
export function accepts(header: string, coding: string): boolean {
  const at = header.indexOf(coding);
  if (at === -1) return false;
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (name?.trim() !== coding) continue;
    return !params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p));
  }
  return false;
}
